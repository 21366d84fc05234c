package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/reviews"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports/porttest"
)

// reviewServer serves the postal, account and review operations over
// memory stores loaded with porttest.PostalDataset.
type reviewServer struct {
	h      http.Handler
	postal *memory.PostalStore
	dir    *directory.Directory
}

func newReviewServer(t *testing.T, limit ratelimit.Limit) reviewServer {
	ps := memory.NewPostalStore(porttest.PostalDataset())
	rv := memory.NewReviewStore()
	dir := directory.NewWithReviews(ps, rv)
	h := apitest.NewHandler(t, httpapi.Routes{
		Directory: dir, Geocoder: geocode.New(ps, nil),
		Accounts: accounts.New(memory.NewAccountStore(), apitest.Passwords),
		Reviews:  reviews.New(dir, rv, reviews.Config{Limiter: memory.NewRateLimiter(), WriteLimit: limit}),
	})
	return reviewServer{h: h, postal: ps, dir: dir}
}

// office fetches /post-offices/{id}.
func (s reviewServer) office(t *testing.T, id string) httpapi.OfficeData {
	t.Helper()
	var o httpapi.OfficeData
	res := apitest.Do(t, s.h, http.MethodGet, "/api/v1/post-offices/"+id, "", "")
	res.Decode(t, &o)
	if res.Status != http.StatusOK {
		t.Fatalf("GET /post-offices/%s = %d %s", id, res.Status, res.Message)
	}
	return o
}

// inPincode returns office id's record from /pincodes/{pin}.
func (s reviewServer) inPincode(t *testing.T, pin string, id int64) httpapi.OfficeData {
	t.Helper()
	var d httpapi.PincodeData
	apitest.Do(t, s.h, http.MethodGet, "/api/v1/pincodes/"+pin, "", "").Decode(t, &d)
	for _, o := range d.PostOffices {
		if o.ID == id {
			return o
		}
	}
	t.Fatalf("office %d not in /pincodes/%s", id, pin)
	return httpapi.OfficeData{}
}

func wantCounts(t *testing.T, where string, f httpapi.FeedbackData, reviews, likes int, rating float64) {
	t.Helper()
	gotRating := -1.0
	if f.Rating != nil {
		gotRating = *f.Rating
	}
	if f.ReviewsCount != reviews || f.LikesCount != likes || gotRating != rating {
		t.Errorf("%s: reviews %d, likes %d, rating %v; want %d, %d, %v (-1: null)", where, f.ReviewsCount, f.LikesCount, gotRating, reviews, likes, rating)
	}
}

// TestReviewsEndToEnd: two users review and like an office; the counts and
// the average show in every office record; one cannot touch the other's
// review; unlike and delete bring the counts down.
func TestReviewsEndToEnd(t *testing.T) {
	s := newReviewServer(t, ratelimit.Limit{Requests: 1000, Window: time.Minute})
	ada := apitest.Login(t, s.h, "ada@example.com")
	bob := apitest.Login(t, s.h, "bob@example.com")
	wantCounts(t, "before", s.office(t, "1").FeedbackData, 0, 0, -1)

	put := func(token, id, body string, status int) httpapi.ReviewData {
		t.Helper()
		var r httpapi.ReviewData
		res := apitest.Do(t, s.h, http.MethodPut, "/api/v1/post-offices/"+id+"/review", apitest.JSONType, body, apitest.Bearer(token)...)
		if res.Status != status {
			t.Fatalf("PUT review %s = %d %s %v; want %d", body, res.Status, res.Message, res.Errors, status)
		}
		if res.Success {
			res.Decode(t, &r)
		}
		return r
	}
	r := put(ada, "1", `{"rating":5,"title":"  Quick  ","text":"Friendly staff."}`, http.StatusCreated)
	if r.OfficeID == nil || *r.OfficeID != 1 || r.Pincode != "800001" || r.Title != "Quick" || r.Rating != 5 {
		t.Errorf("ada's review = %+v", r)
	}
	put(bob, "1", `{"rating":2}`, http.StatusCreated)
	put(bob, "1", `{"rating":4,"text":"Better now"}`, http.StatusOK) // replaces bob's
	for _, who := range []string{ada, bob} {
		if res := apitest.Do(t, s.h, http.MethodPut, "/api/v1/post-offices/1/like", "", "", apitest.Bearer(who)...); res.Status != 200 {
			t.Fatalf("like = %d %s", res.Status, res.Message)
		}
	}
	var like httpapi.LikeData // liking twice is one like
	apitest.Do(t, s.h, http.MethodPut, "/api/v1/post-offices/1/like", "", "", apitest.Bearer(ada)...).Decode(t, &like)
	wantCounts(t, "like answer", like.FeedbackData, 2, 2, 4.5)

	wantCounts(t, "/post-offices/1", s.office(t, "1").FeedbackData, 2, 2, 4.5)
	wantCounts(t, "/pincodes/800001", s.inPincode(t, "800001", 1).FeedbackData, 2, 2, 4.5)
	wantCounts(t, "/pincodes/800001 other office", s.inPincode(t, "800001", 3).FeedbackData, 0, 0, -1)
	var details httpapi.OfficeData
	apitest.Do(t, s.h, http.MethodGet, "/api/v1/pincodes/800001/details", "", "").Decode(t, &details)
	wantCounts(t, "/details", details.FeedbackData, 2, 2, 4.5)
	var search httpapi.SearchData
	apitest.Do(t, s.h, http.MethodGet, "/api/v1/pincodes/search?q=Patna+GPO", "", "").Decode(t, &search)
	if len(search.Results) == 0 || search.Results[0].ID != 1 {
		t.Fatalf("search = %+v", search)
	}
	wantCounts(t, "search", search.Results[0].FeedbackData, 2, 2, 4.5)
	var near httpapi.NearbyData
	apitest.Do(t, s.h, http.MethodGet, "/api/v1/pincodes/nearby?latitude=25.61&longitude=85.14&limit=1", "", "").Decode(t, &near)
	if len(near.PostOffices) != 1 || near.PostOffices[0].ID != 1 {
		t.Fatalf("nearby = %+v", near)
	}
	wantCounts(t, "nearby", near.PostOffices[0].FeedbackData, 2, 2, 4.5)

	var batch httpapi.PincodeBatchData
	apitest.Do(t, s.h, http.MethodPost, "/api/v1/pincodes/batch", apitest.JSONType, `{"pincodes":["800008","800001","800001"]}`).Decode(t, &batch)
	for _, i := range []int{1, 2} {
		if len(batch.Results) != 3 || len(batch.Results[i].PostOffices) != 2 || batch.Results[i].PostOffices[1].ID != 1 {
			t.Fatalf("batch = %+v", batch)
		}
		wantCounts(t, "batch", batch.Results[i].PostOffices[1].FeedbackData, 2, 2, 4.5)
	}
	var district httpapi.DistrictPincodesData
	apitest.Do(t, s.h, http.MethodGet, "/api/v1/districts/PATNA/pincodes?per_page=100", "", "").Decode(t, &district)
	seen := false
	for _, o := range district.Results {
		if o.ID == 1 {
			seen = true
			wantCounts(t, "district list", o.FeedbackData, 2, 2, 4.5)
		} else {
			wantCounts(t, "district list, another office", o.FeedbackData, 0, 0, -1)
		}
	}
	if !seen {
		t.Errorf("office 1 not in its district's list: %+v", district)
	}

	var list httpapi.ReviewsData
	apitest.Do(t, s.h, http.MethodGet, "/api/v1/post-offices/1/reviews?sort_by=rating&sort=asc", "", "").Decode(t, &list)
	if list.Meta.Total != 2 || len(list.Reviews) != 2 || list.Reviews[0].Rating != 4 || list.Reviews[1].Rating != 5 {
		t.Errorf("reviews by rating = %+v", list)
	}

	// Bob cannot touch ada's review: he only ever reaches his own.
	if res := apitest.Do(t, s.h, http.MethodDelete, "/api/v1/post-offices/1/review", "", "", apitest.Bearer(bob)...); res.Status != 200 {
		t.Fatalf("bob deletes his review = %d", res.Status)
	}
	for _, method := range []string{http.MethodDelete, http.MethodGet} {
		if res := apitest.Do(t, s.h, method, "/api/v1/post-offices/1/review", "", "", apitest.Bearer(bob)...); res.Status != 404 || res.Code != "not_found" {
			t.Errorf("bob %s with no review of his = %d %q; want 404", method, res.Status, res.Code)
		}
	}
	var mine httpapi.ReviewData
	apitest.Do(t, s.h, http.MethodGet, "/api/v1/post-offices/1/review", "", "", apitest.Bearer(ada)...).Decode(t, &mine)
	if mine.Rating != 5 || mine.Title != "Quick" {
		t.Errorf("ada's review after bob's writes = %+v", mine)
	}
	wantCounts(t, "after bob's delete", s.office(t, "1").FeedbackData, 1, 2, 5)
	if res := apitest.Do(t, s.h, http.MethodDelete, "/api/v1/post-offices/1/like", "", "", apitest.Bearer(bob)...); res.Status != 200 {
		t.Fatalf("unlike = %d", res.Status)
	}
	apitest.Do(t, s.h, http.MethodDelete, "/api/v1/post-offices/1/like", "", "", apitest.Bearer(bob)...) // idempotent
	wantCounts(t, "after bob's unlike", s.inPincode(t, "800001", 1).FeedbackData, 1, 1, 5)
	apitest.Do(t, s.h, http.MethodDelete, "/api/v1/post-offices/1/review", "", "", apitest.Bearer(ada)...)
	apitest.Do(t, s.h, http.MethodDelete, "/api/v1/post-offices/1/like", "", "", apitest.Bearer(ada)...)
	wantCounts(t, "after all deleted", s.office(t, "1").FeedbackData, 0, 0, -1)

	// Without a key, writes are 401; an unknown office is 404.
	if res := apitest.Do(t, s.h, http.MethodPut, "/api/v1/post-offices/1/review", apitest.JSONType, `{"rating":3}`); res.Status != 401 {
		t.Errorf("PUT review without a key = %d", res.Status)
	}
	for _, id := range []string{"13", "999", "0"} { // 13: the dataset's dropped duplicate row
		if res := apitest.Do(t, s.h, http.MethodPut, "/api/v1/post-offices/"+id+"/review", apitest.JSONType, `{"rating":3}`, apitest.Bearer(ada)...); res.Status != 404 {
			t.Errorf("PUT review of office %s = %d, want 404", id, res.Status)
		}
		if res := apitest.Do(t, s.h, http.MethodGet, "/api/v1/post-offices/"+id, "", ""); res.Status != 404 {
			t.Errorf("GET office %s = %d, want 404", id, res.Status)
		}
	}
}

// TestReviewsHostileText: markup and SQL-looking text is stored as written
// and returned verbatim in JSON (never rendered as HTML), Hindi with joiners
// and emoji too; texts breaking the user text rule (control characters,
// bidirectional overrides, zero-width spaces, stacked marks) are 422 by
// field, the message naming what is wrong.
func TestReviewsHostileText(t *testing.T) {
	s := newReviewServer(t, ratelimit.Limit{Requests: 1000, Window: time.Minute})
	ada := apitest.Login(t, s.h, "ada@example.com")
	title := `<script>alert("x")</script>`
	text := "</textarea><img src=x onerror=alert(1)> ' OR 1=1; -- \U0001F600\nline two & more\nक्\u200Dष, क्\u200Cष \U0001F468\u200D\U0001F469\u200D\U0001F467"
	body := `{"rating":3,"title":` + jsonString(title) + `,"text":` + jsonString(text) + `}`
	res := apitest.Do(t, s.h, http.MethodPut, "/api/v1/post-offices/2/review", apitest.JSONType, body, apitest.Bearer(ada)...)
	if res.Status != http.StatusCreated {
		t.Fatalf("PUT hostile review = %d %s %v", res.Status, res.Message, res.Errors)
	}
	req, _ := http.NewRequest(http.MethodGet, "/api/v1/post-offices/2/reviews", nil)
	page := apitest.Send(s.h, req)
	if ct := page.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") || page.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("review list Content-Type %q, nosniff %q; want JSON, never sniffed as HTML", ct, page.Header.Get("X-Content-Type-Options"))
	}
	var list httpapi.ReviewsData
	apitest.Do(t, s.h, http.MethodGet, "/api/v1/post-offices/2/reviews", "", "").Decode(t, &list)
	if len(list.Reviews) != 1 || list.Reviews[0].Title != title || list.Reviews[0].Text != text {
		t.Errorf("stored texts = %+v; want them verbatim", list.Reviews)
	}
	for _, tt := range []struct{ body, field, says string }{
		{`{"rating":0}`, "rating", ""}, {`{"rating":6}`, "rating", ""},
		{`{"rating":3,"title":"` + strings.Repeat("a", 121) + `"}`, "title", "at most 120"},
		{`{"rating":3,"text":"` + strings.Repeat("é", 2001) + `"}`, "text", "at most 2000"},
		{`{"rating":3,"title":"a\nb"}`, "title", "control"}, {`{"rating":3,"text":"a\u0000b"}`, "text", "control"}, {`{"rating":3,"text":"a\u001bb"}`, "text", "control"},
		{`{"rating":3,"title":"abc\u202edef"}`, "title", "bidirectional overrides"},
		{`{"rating":3,"text":"ok \u202e reversed"}`, "text", "bidirectional overrides"},
		{`{"rating":3,"text":"pin\u200bsight"}`, "text", "zero-width spaces"},
		{`{"rating":3,"text":"a` + strings.Repeat(`\u0301`, 2000) + `"}`, "text", "combining marks"},
	} {
		res := apitest.Do(t, s.h, http.MethodPut, "/api/v1/post-offices/2/review", apitest.JSONType, tt.body, apitest.Bearer(ada)...)
		if res.Status != 422 || len(res.Errors) == 0 {
			t.Errorf("PUT %.60s = %d %v; want 422", tt.body, res.Status, res.Errors)
		}
		msgs, named := res.Errors[tt.field]
		if !named && !strings.Contains(strings.Join(keys(res.Errors), ","), tt.field) {
			t.Errorf("PUT %.60s errors %v; want one on %s", tt.body, res.Errors, tt.field)
		}
		if named && !strings.Contains(strings.Join(msgs, "; "), tt.says) {
			t.Errorf("PUT %.60s errors on %s %q; want them to say %q", tt.body, tt.field, msgs, tt.says)
		}
	}
}

func keys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestReviewsCaching: office answers are cached 5 minutes with an ETag
// that a review changes for its pincode only.
func TestReviewsCaching(t *testing.T) {
	s := newReviewServer(t, ratelimit.Limit{Requests: 1000, Window: time.Minute})
	ada := apitest.Login(t, s.h, "ada@example.com")
	var changed []postal.Pincode
	s.dir.OnCountsChanged(func(pin postal.Pincode) { changed = append(changed, pin) })
	etag := func(target string) string {
		t.Helper()
		res := apitest.Do(t, s.h, http.MethodGet, target, "", "")
		if res.Header.Get("Cache-Control") != "public, max-age=300" || res.Header.Get("ETag") == "" {
			t.Fatalf("GET %s: Cache-Control %q, ETag %q", target, res.Header.Get("Cache-Control"), res.Header.Get("ETag"))
		}
		return res.Header.Get("ETag")
	}
	targets := []string{"/api/v1/pincodes/800001", "/api/v1/post-offices/1", "/api/v1/pincodes/800008", "/api/v1/post-offices/2",
		"/api/v1/pincodes/search?q=patna"}
	before := map[string]string{}
	for _, target := range targets {
		before[target] = etag(target)
	}
	apitest.Do(t, s.h, http.MethodPut, "/api/v1/post-offices/1/review", apitest.JSONType, `{"rating":4}`, apitest.Bearer(ada)...)
	for target, wantChange := range map[string]bool{"/api/v1/pincodes/800001": true, "/api/v1/post-offices/1": true,
		"/api/v1/pincodes/800008": false, "/api/v1/post-offices/2": false, "/api/v1/pincodes/search?q=patna": true} {
		after := etag(target)
		if (after != before[target]) != wantChange {
			t.Errorf("GET %s: ETag %s -> %s after a review in 800001; want changed: %v", target, before[target], after, wantChange)
		}
		req, _ := http.NewRequest(http.MethodGet, target, nil)
		req.Header.Set("If-None-Match", before[target])
		res := apitest.Send(s.h, req)
		if wantChange && res.Status != http.StatusOK {
			t.Errorf("GET %s with the old ETag = %d, want 200", target, res.Status)
		}
		if !wantChange && res.Status != http.StatusNotModified {
			t.Errorf("GET %s with its unchanged ETag = %d, want 304", target, res.Status)
		}
	}
	if len(changed) != 1 || changed[0] != "800001" {
		t.Errorf("OnCountsChanged saw %v; want [800001]", changed)
	}
	// The answers read before the review were stored encoded: what is
	// served now carries the review, for the PIN and for the search.
	for _, target := range []string{"/api/v1/pincodes/800001", "/api/v1/pincodes/search?q=patna"} {
		var data struct {
			PostOffices []httpapi.OfficeData `json:"post_offices"`
			Results     []httpapi.OfficeData `json:"results"`
		}
		if err := json.Unmarshal(apitest.Do(t, s.h, http.MethodGet, target, "", "").Data, &data); err != nil {
			t.Fatal(err)
		}
		var found bool
		for _, o := range append(data.PostOffices, data.Results...) {
			if o.ID == 1 {
				found = o.ReviewsCount == 1 && o.Rating != nil && *o.Rating == 4
			}
		}
		if !found {
			t.Errorf("GET %s after the review: office 1 is not served with reviews_count 1 and rating 4: %+v", target, data)
		}
	}
	if res := apitest.Do(t, s.h, http.MethodGet, "/api/v1/states", "", ""); res.Header.Get("Cache-Control") != "public, max-age=86400" {
		t.Errorf("/states Cache-Control = %q; answers without offices keep a day", res.Header.Get("Cache-Control"))
	}
}

// TestReviewsRateLimit: writes beyond the user's quota are 429 with
// Retry-After; another user is not affected.
func TestReviewsRateLimit(t *testing.T) {
	s := newReviewServer(t, ratelimit.Limit{Requests: 3, Window: time.Hour})
	ada := apitest.Login(t, s.h, "ada@example.com")
	bob := apitest.Login(t, s.h, "bob@example.com")
	for i := range 3 {
		if res := apitest.Do(t, s.h, http.MethodPut, "/api/v1/post-offices/1/like", "", "", apitest.Bearer(ada)...); res.Status != 200 {
			t.Fatalf("write %d = %d", i, res.Status)
		}
	}
	res := apitest.Do(t, s.h, http.MethodPut, "/api/v1/post-offices/1/review", apitest.JSONType, `{"rating":4}`, apitest.Bearer(ada)...)
	if res.Status != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Errorf("4th write = %d, Retry-After %q; want 429 with it", res.Status, res.Header.Get("Retry-After"))
	}
	if res := apitest.Do(t, s.h, http.MethodPut, "/api/v1/post-offices/1/review", apitest.JSONType, `{"rating":4}`, apitest.Bearer(bob)...); res.Status != 201 {
		t.Errorf("bob's first write = %d", res.Status)
	}
}

// TestReviewsAcrossReleases: a review follows its office's identity; an
// office a release drops keeps its reviews, unseen, until it returns.
func TestReviewsAcrossReleases(t *testing.T) {
	s := newReviewServer(t, ratelimit.Limit{Requests: 1000, Window: time.Minute})
	ada := apitest.Login(t, s.h, "ada@example.com")
	apitest.Do(t, s.h, http.MethodPut, "/api/v1/post-offices/3/review", apitest.JSONType, `{"rating":2}`, apitest.Bearer(ada)...)
	ds := porttest.PostalDataset()
	without := *ds
	without.Offices = nil
	for _, o := range ds.Offices {
		if o.ID != 3 {
			without.Offices = append(without.Offices, o)
		}
	}
	s.postal.Replace(&without)
	var mine httpapi.ReviewsData
	apitest.Do(t, s.h, http.MethodGet, "/api/v1/account/reviews", "", "", apitest.Bearer(ada)...).Decode(t, &mine)
	if mine.Meta.Total != 1 || len(mine.Reviews) != 1 || mine.Reviews[0].OfficeID != nil || mine.Reviews[0].Pincode != "800001" {
		t.Errorf("ada's reviews with office 3 dropped = %+v; want it kept with office_id null", mine)
	}
	// The same office back under another id (a new file order): its review follows.
	moved := *ds
	moved.Offices = nil
	for _, o := range ds.Offices {
		if o.ID == 3 {
			o.ID = 300
		}
		moved.Offices = append(moved.Offices, o)
	}
	s.postal.Replace(&moved)
	wantCounts(t, "office 3 as 300", s.office(t, "300").FeedbackData, 1, 0, 2)
	apitest.Do(t, s.h, http.MethodGet, "/api/v1/account/reviews", "", "", apitest.Bearer(ada)...).Decode(t, &mine)
	if len(mine.Reviews) != 1 || mine.Reviews[0].OfficeID == nil || *mine.Reviews[0].OfficeID != 300 {
		t.Errorf("ada's reviews after the office moved = %+v; want office_id 300", mine)
	}
}

// jsonString is s as a JSON string literal.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestBodyNumbersSpeakTheAPI: a JSON number that the schema accepts but
// its Go field cannot hold (3.0, 1e0, too large) is refused in the API's
// terms, on the field, never with the decoder's text.
func TestBodyNumbersSpeakTheAPI(t *testing.T) {
	s := newReviewServer(t, ratelimit.Limit{Requests: 1000, Window: time.Minute})
	ada := apitest.Login(t, s.h, "ada@example.com")
	for _, tt := range []struct {
		body, field, want string
		status            int
	}{
		{`{"rating":1e0}`, "rating", "no decimal point or exponent", 422},
		{`{"rating":3.0}`, "rating", "no decimal point or exponent", 422},
		{`{"rating":99999999999999999999}`, "rating", "integer out of range", 422},
		{`{"rating":1e400}`, "body", "number out of range", 400},
	} {
		res := apitest.Do(t, s.h, http.MethodPut, "/api/v1/post-offices/2/review", apitest.JSONType, tt.body, apitest.Bearer(ada)...)
		msgs := strings.Join(res.Errors[tt.field], "; ")
		if res.Status != tt.status || !strings.Contains(msgs, tt.want) {
			t.Errorf("PUT %s = %d %v; want %d with %q on %s", tt.body, res.Status, res.Errors, tt.status, tt.want, tt.field)
		}
		for _, m := range append([]string{res.Message}, msgs) {
			if strings.Contains(m, "json:") || strings.Contains(m, "Go ") || strings.Contains(m, "unmarshal") {
				t.Errorf("PUT %s: message %q speaks Go, not the API", tt.body, m)
			}
		}
	}
}

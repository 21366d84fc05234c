package mcp_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pinsight/pinsight/adapters/mcp"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
)

var (
	publicTools = []string{"digipin_decode", "digipin_encode", "digipin_nearest", "digipin_validate", "list_districts",
		"list_states", "nearby_offices", "office_details", "pincode_lookup", "search_offices", "autocomplete_offices"}
	keyTools = []string{"analyse_url", "get_report", "list_reports", "crawl_start", "crawl_status", "crawl_issues"}
)

func TestListTools(t *testing.T) {
	f := newFixture(t)
	tools := listTools(t, connect(t, f.options("")))
	want := slices.Sorted(slices.Values(append(slices.Clone(publicTools), keyTools...)))
	got := slices.Sorted(func(yield func(string) bool) {
		for n := range tools {
			if !yield(n) {
				return
			}
		}
	})
	if !slices.Equal(got, want) {
		t.Fatalf("tools = %v, want %v", got, want)
	}
	for name, tl := range tools {
		if len(tl.Description) < 60 || tl.InputSchema == nil || tl.OutputSchema == nil {
			t.Errorf("%s: description %q, input schema %v, output schema %v", name, tl.Description, tl.InputSchema != nil, tl.OutputSchema != nil)
		}
	}
	b, _ := json.Marshal(tools["pincode_lookup"].InputSchema)
	if !strings.Contains(string(b), `"required":["pincode"]`) || !strings.Contains(string(b), "6-digit") {
		t.Errorf("pincode_lookup input schema %s: want pincode required and described", b)
	}
	// Without reports the site-analysis tools are not offered.
	tools = listTools(t, connect(t, mcp.Options{Directory: f.dir, Geocoder: f.geo}))
	for _, n := range keyTools {
		if tools[n] != nil {
			t.Errorf("%s listed without reports", n)
		}
	}
}

func TestPostalTools(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.options(""))
	tools := listTools(t, cs)

	var pin struct {
		Pincode     string `json:"pincode"`
		Total       int    `json:"total"`
		PostOffices []struct {
			ID         int64   `json:"id"`
			PostOffice string  `json:"post_office"`
			BranchType string  `json:"branch_type"`
			Digipin    *string `json:"digipin"`
		} `json:"post_offices"`
	}
	res := mustSucceed(t, cs, tools, "pincode_lookup", map[string]any{"pincode": "110001"}, &pin)
	_, offices, err := f.dir.Lookup(context.Background(), "110001")
	if err != nil {
		t.Fatal(err)
	}
	if pin.Pincode != "110001" || pin.Total != len(offices) || len(pin.PostOffices) != len(offices) {
		t.Fatalf("pincode_lookup = %s %d offices, want 110001 %d", pin.Pincode, len(pin.PostOffices), len(offices))
	}
	for i, o := range offices {
		if pin.PostOffices[i].ID != o.ID || pin.PostOffices[i].PostOffice != o.Name {
			t.Errorf("office %d = %+v, want %d %s", i, pin.PostOffices[i], o.ID, o.Name)
		}
	}
	if !strings.Contains(text(res), "PIN 110001") {
		t.Errorf("text %q", text(res))
	}

	var office struct {
		Pincode    string `json:"pincode"`
		PostOffice string `json:"post_office"`
	}
	mustSucceed(t, cs, tools, "office_details", map[string]any{"pincode": "110001", "post_office": offices[1].Name}, &office)
	if office.PostOffice != offices[1].Name {
		t.Errorf("office_details = %+v, want %s", office, offices[1].Name)
	}
	mustSucceed(t, cs, tools, "office_details", map[string]any{"pincode": "110001"}, &office)

	var near struct {
		WithinRadius bool `json:"within_radius"`
		PostOffices  []struct {
			DistanceKm float64 `json:"distance_km"`
		} `json:"post_offices"`
	}
	mustSucceed(t, cs, tools, "nearby_offices", map[string]any{"latitude": 28.6139, "longitude": 77.209, "limit": 3}, &near)
	if !near.WithinRadius || len(near.PostOffices) != 3 || near.PostOffices[0].DistanceKm > near.PostOffices[2].DistanceKm {
		t.Errorf("nearby_offices = %+v", near)
	}
	mustSucceed(t, cs, tools, "nearby_offices", map[string]any{"point": "28.6139N 77.209E"}, &near)
	if len(near.PostOffices) != 5 {
		t.Errorf("nearby_offices default limit: %d offices", len(near.PostOffices))
	}

	var search struct {
		Results []struct {
			Pincode string `json:"pincode"`
		} `json:"results"`
		Meta struct {
			Total   int `json:"total"`
			PerPage int `json:"per_page"`
		} `json:"meta"`
	}
	mustSucceed(t, cs, tools, "search_offices", map[string]any{"q": "11000", "per_page": 5}, &search)
	if search.Meta.Total == 0 || len(search.Results) != 5 || search.Meta.PerPage != 5 || !strings.HasPrefix(search.Results[0].Pincode, "11000") {
		t.Errorf("search_offices = %+v", search)
	}

	var suggest struct {
		Suggestions []struct {
			Office struct {
				Pincode string `json:"pincode"`
			} `json:"office"`
			Kind  string `json:"match_kind"`
			Edits int    `json:"edits"`
		} `json:"suggestions"`
	}
	mustSucceed(t, cs, tools, "autocomplete_offices", map[string]any{"q": "conaught place", "limit": 3}, &suggest)
	if len(suggest.Suggestions) == 0 || suggest.Suggestions[0].Office.Pincode != "110001" || suggest.Suggestions[0].Kind != "fuzzy" {
		t.Errorf("autocomplete_offices of a misspelt Connaught Place = %+v", suggest)
	}

	var states struct {
		Total  int `json:"total"`
		States []struct {
			ID   int    `json:"id"`
			Name string `json:"name"`
		} `json:"states"`
	}
	mustSucceed(t, cs, tools, "list_states", map[string]any{}, &states)
	if states.Total < 30 || len(states.States) != states.Total {
		t.Errorf("list_states: %d states", states.Total)
	}
	var districts struct {
		State     string `json:"state"`
		Districts []struct {
			Name string `json:"name"`
		} `json:"districts"`
	}
	mustSucceed(t, cs, tools, "list_districts", map[string]any{"state": "Kerala"}, &districts)
	if districts.State != "Kerala" || len(districts.Districts) != 14 {
		t.Errorf("list_districts(Kerala) = %s, %d districts", districts.State, len(districts.Districts))
	}
}

func TestDigipinTools(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.options(""))
	tools := listTools(t, cs)
	var enc struct {
		Digipin string `json:"digipin"`
	}
	mustSucceed(t, cs, tools, "digipin_encode", map[string]any{"latitude": 28.622788, "longitude": 77.213033}, &enc)
	if enc.Digipin != "39J-49L-L8T4" {
		t.Errorf("digipin_encode = %s, want 39J-49L-L8T4", enc.Digipin)
	}
	var dec struct {
		Latitude, Longitude float64
		Bounds              map[string]float64 `json:"bounds"`
	}
	mustSucceed(t, cs, tools, "digipin_decode", map[string]any{"digipin": "39j49ll8t4"}, &dec)
	if dec.Latitude < 28.6227 || dec.Latitude > 28.6229 || dec.Bounds["min_latitude"] >= dec.Bounds["max_latitude"] {
		t.Errorf("digipin_decode = %+v", dec)
	}
	var val struct {
		Valid     bool    `json:"valid"`
		Reason    *string `json:"reason"`
		Formatted *string `json:"formatted"`
	}
	mustSucceed(t, cs, tools, "digipin_validate", map[string]any{"digipin": "39J49LL8T4"}, &val)
	if !val.Valid || val.Formatted == nil || *val.Formatted != "39J-49L-L8T4" {
		t.Errorf("digipin_validate(valid) = %+v", val)
	}
	mustSucceed(t, cs, tools, "digipin_validate", map[string]any{"digipin": "39J-49L-L8TA"}, &val)
	if val.Valid || val.Reason == nil || *val.Reason == "" {
		t.Errorf("digipin_validate(invalid) = %+v", val)
	}
	var nearest struct {
		Digipin     string `json:"digipin"`
		PostOffices []struct {
			Pincode   string `json:"pincode"`
			MatchedBy string `json:"matched_by"`
		} `json:"post_offices"`
	}
	mustSucceed(t, cs, tools, "digipin_nearest", map[string]any{"point": "28.622788, 77.213033"}, &nearest)
	if nearest.Digipin != "39J-49L-L8T4" || len(nearest.PostOffices) != 3 || nearest.PostOffices[0].MatchedBy != "distance" {
		t.Errorf("digipin_nearest = %+v", nearest)
	}
}

func TestReportTools(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.options(f.key))
	tools := listTools(t, cs)
	var rep struct {
		ID     int64  `json:"id"`
		Status string `json:"status"`
		Score  int    `json:"score"`
		Checks []struct {
			ID     string `json:"id"`
			Passed bool   `json:"passed"`
			Advice string `json:"advice"`
		} `json:"checks"`
	}
	res := mustSucceed(t, cs, tools, "analyse_url", map[string]any{"url": "https://example.com/", "wait": 10}, &rep)
	if rep.ID == 0 || rep.Status != "generated" || rep.Score != 50 || len(rep.Checks) != 2 || rep.Checks[0].Passed || rep.Checks[0].Advice == "" {
		t.Fatalf("analyse_url = %+v", rep)
	}
	if !strings.Contains(text(res), "scored 50") {
		t.Errorf("analyse_url text %q", text(res))
	}
	var got struct {
		ID  int64  `json:"id"`
		URL string `json:"url"`
	}
	mustSucceed(t, cs, tools, "get_report", map[string]any{"id": rep.ID}, &got)
	if got.ID != rep.ID || got.URL != "https://example.com/" {
		t.Errorf("get_report = %+v", got)
	}
	var list struct {
		Reports []struct {
			ID int64 `json:"id"`
		} `json:"reports"`
		Meta struct {
			Total int `json:"total"`
		} `json:"meta"`
	}
	mustSucceed(t, cs, tools, "list_reports", map[string]any{"status": "generated"}, &list)
	if list.Meta.Total != 1 || len(list.Reports) != 1 || list.Reports[0].ID != rep.ID {
		t.Errorf("list_reports = %+v", list)
	}

	// Another user sees none of them.
	other, err := f.acc.CreateUser(context.Background(), "other@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	cs2 := connect(t, f.options(other.Key))
	mustFail(t, cs2, "get_report", map[string]any{"id": rep.ID}, "not_found")
}

// TestReportScreenshotPaths: a rendered report names the HTTP paths of
// the screenshots it keeps (the whole page's with screenshot full) and
// never carries an image; full with render off is an invalid argument.
func TestReportScreenshotPaths(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.options(f.key))
	tools := listTools(t, cs)
	var rep struct {
		ID          int64             `json:"id"`
		Screenshot  string            `json:"screenshot"`
		Screenshots map[string]string `json:"screenshots"`
	}
	res := mustSucceed(t, cs, tools, "analyse_url", map[string]any{"url": "https://app.test/", "render": "auto", "screenshot": "full"}, &rep)
	want := "/api/v1/reports/" + strconv.FormatInt(rep.ID, 10) + "/screenshot?kind="
	if rep.Screenshot != "full" || rep.Screenshots["viewport"] != want+"viewport" || rep.Screenshots["full"] != want+"full" {
		t.Errorf("analyse_url: screenshot %q, screenshots %v; want full, both paths", rep.Screenshot, rep.Screenshots)
	}
	for _, c := range res.Content {
		if _, isText := c.(*sdk.TextContent); !isText {
			t.Errorf("analyse_url answered content %T: images are never embedded", c)
		}
	}
	if raw, _ := json.Marshal(res.StructuredContent); strings.Contains(string(raw), "/9j/") || len(raw) > 4000 {
		t.Errorf("the report's data carries image bytes (%d bytes)", len(raw))
	}
	var plain struct {
		Screenshots map[string]string `json:"screenshots"`
	}
	mustSucceed(t, cs, tools, "analyse_url", map[string]any{"url": "https://example.com/"}, &plain)
	if plain.Screenshots != nil {
		t.Errorf("a report that did not render: screenshots %v, want none", plain.Screenshots)
	}
	mustFail(t, cs, "analyse_url", map[string]any{"url": "https://example.com/", "screenshot": "full"}, "invalid_argument")
}

// TestErrorKinds: every kind the tools meet maps to its code, with the
// argument named, the wait given, and no Go error text.
func TestErrorKinds(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.options(f.key))

	e := mustFail(t, cs, "pincode_lookup", map[string]any{"pincode": "12345"}, "invalid_argument")
	if len(e.Arguments["pincode"]) == 0 {
		t.Errorf("invalid pincode names %v, want pincode", e.Arguments)
	}
	e = mustFail(t, cs, "pincode_lookup", map[string]any{}, "invalid_argument")
	if e.Arguments["pincode"][0] != "is required" {
		t.Errorf("missing pincode: %+v", e)
	}
	mustFail(t, cs, "pincode_lookup", map[string]any{"pincode": "999999"}, "not_found")
	e = mustFail(t, cs, "nearby_offices", map[string]any{"latitude": 95, "longitude": 77}, "invalid_argument")
	if len(e.Arguments["latitude"]) == 0 {
		t.Errorf("latitude 95: %+v", e)
	}
	e = mustFail(t, cs, "nearby_offices", map[string]any{"latitude": 28, "longitude": 77, "radius": 500, "limit": 51}, "invalid_argument")
	if len(e.Arguments["radius"]) == 0 || len(e.Arguments["limit"]) == 0 {
		t.Errorf("radius 500, limit 51: %+v", e)
	}
	e = mustFail(t, cs, "nearby_offices", map[string]any{"longitude": 77}, "invalid_argument")
	if len(e.Arguments["latitude"]) == 0 {
		t.Errorf("missing latitude: %+v", e)
	}
	e = mustFail(t, cs, "digipin_encode", map[string]any{"latitude": 1, "longitude": 77}, "invalid_argument")
	if len(e.Arguments["latitude"]) == 0 {
		t.Errorf("latitude outside the grid: %+v", e)
	}
	e = mustFail(t, cs, "digipin_decode", map[string]any{"digipin": "nope"}, "invalid_argument")
	if len(e.Arguments["digipin"]) == 0 {
		t.Errorf("bad digipin: %+v", e)
	}
	e = mustFail(t, cs, "list_districts", map[string]any{"state": "Ma"}, "invalid_argument")
	if len(e.Arguments["state"]) < 1 {
		t.Errorf("ambiguous state: %+v", e)
	}
	mustFail(t, cs, "list_districts", map[string]any{"state": "Atlantis"}, "not_found")
	e = mustFail(t, cs, "search_offices", map[string]any{"q": "delhi", "per_page": 1000}, "invalid_argument")
	if len(e.Arguments["per_page"]) == 0 {
		t.Errorf("per_page 1000: %+v", e)
	}
	e = mustFail(t, cs, "autocomplete_offices", map[string]any{"q": "delhi", "latitude": 28.6}, "invalid_argument")
	if len(e.Arguments["longitude"]) == 0 {
		t.Errorf("latitude without longitude: %+v", e)
	}
	e = mustFail(t, cs, "analyse_url", map[string]any{"url": "https://quota.test/"}, "rate_limited")
	if e.RetryAfterSeconds != 5400 {
		t.Errorf("quota: retry after %d s, want 5400", e.RetryAfterSeconds)
	}
	e = mustFail(t, cs, "analyse_url", map[string]any{"url": "https://example.com/", "wait": 61}, "invalid_argument")
	if len(e.Arguments["wait"]) == 0 {
		t.Errorf("wait 61: %+v", e)
	}
	e = mustFail(t, cs, "analyse_url", map[string]any{"url": "ftp://example.com/"}, "invalid_argument")
	if len(e.Arguments["url"]) == 0 {
		t.Errorf("ftp url: %+v", e)
	}
	e = mustFail(t, cs, "list_reports", map[string]any{"per_page": 7}, "invalid_argument")
	if len(e.Arguments["per_page"]) == 0 {
		t.Errorf("per_page 7: %+v", e)
	}
	mustFail(t, cs, "get_report", map[string]any{"id": 424242}, "not_found")

	// unauthorized: no key, or a key refused.
	for _, key := range []string{"", "not-a-key"} {
		anon := connect(t, f.options(key))
		mustFail(t, anon, "analyse_url", map[string]any{"url": "https://example.com/"}, "unauthorized")
		mustFail(t, anon, "get_report", map[string]any{"id": 1}, "unauthorized")
		mustFail(t, anon, "list_reports", nil, "unauthorized")
	}

	// unavailable: no directory loaded.
	empty := memory.NewPostalStore(nil)
	none := connect(t, mcp.Options{Directory: directory.New(empty), Geocoder: geocode.New(empty, nil)})
	mustFail(t, none, "pincode_lookup", map[string]any{"pincode": "110001"}, "unavailable")
	mustFail(t, none, "nearby_offices", map[string]any{"latitude": 28.6, "longitude": 77.2}, "unavailable")
}

func TestResources(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.options(f.key))
	ctx := context.Background()
	res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "pinsight://dataset"})
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Source, Licence, Attribution string
		PostOffices                  int `json:"post_offices"`
	}
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &d); err != nil {
		t.Fatal(err)
	}
	if d.Source != "embedded" || d.Licence != "GODL-India" || d.Attribution == "" || d.PostOffices < 100000 {
		t.Errorf("dataset = %+v", d)
	}
	var rep struct {
		ID int64 `json:"id"`
	}
	call(t, cs, "analyse_url", map[string]any{"url": "https://example.com/a"}, &rep)
	res, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "pinsight://reports/" + strconv.FormatInt(rep.ID, 10)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Contents[0].Text, `"url":"https://example.com/a"`) {
		t.Errorf("report resource %s", res.Contents[0].Text)
	}
	if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "pinsight://reports/999999"}); err == nil {
		t.Error("an unknown report was read")
	}
	anon := connect(t, f.options(""))
	_, err = anon.ReadResource(ctx, &sdk.ReadResourceParams{URI: "pinsight://reports/" + strconv.FormatInt(rep.ID, 10)})
	if err == nil || !strings.Contains(err.Error(), "unauthorized") {
		t.Errorf("report without a key: %v", err)
	}
}

// TestCrawlTools: a crawl started through the tools is queued (the test's
// queue never runs), readable by its owner only, its issues an empty page;
// bad arguments and another user's crawl answer by kind.
func TestCrawlTools(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.options(f.key))
	tools := listTools(t, cs)
	var c struct {
		ID     int64  `json:"id"`
		Status string `json:"status"`
		Site   string `json:"site"`
		Issues []any  `json:"issues"`
	}
	res := mustSucceed(t, cs, tools, "crawl_start", map[string]any{"url": "https://www.example.com/", "max_pages": 50}, &c)
	if c.ID == 0 || c.Status != "queued" || c.Site != "example.com" || c.Issues == nil {
		t.Fatalf("crawl_start = %+v", c)
	}
	if !strings.Contains(text(res), "queued") {
		t.Errorf("crawl_start text %q", text(res))
	}
	var got struct {
		ID int64 `json:"id"`
	}
	mustSucceed(t, cs, tools, "crawl_status", map[string]any{"id": c.ID}, &got)
	if got.ID != c.ID {
		t.Errorf("crawl_status = %+v", got)
	}
	var issues struct {
		Issues []any `json:"issues"`
		Meta   struct {
			Total int `json:"total"`
		} `json:"meta"`
	}
	mustSucceed(t, cs, tools, "crawl_issues", map[string]any{"id": c.ID, "severity": "high"}, &issues)
	if issues.Issues == nil || len(issues.Issues) != 0 || issues.Meta.Total != 0 {
		t.Errorf("crawl_issues of a queued crawl = %+v", issues)
	}

	var set struct {
		Concurrency int    `json:"concurrency"`
		Schedule    string `json:"schedule"`
	}
	mustSucceed(t, cs, tools, "crawl_start", map[string]any{"url": "https://blog.example.com/", "concurrency": 6, "delay_ms": 250,
		"schedule": "weekly"}, &set)
	if set.Concurrency != 6 || set.Schedule != "weekly" {
		t.Errorf("crawl_start with concurrency 6 and a weekly schedule = %+v", set)
	}
	e := mustFail(t, cs, "crawl_start", map[string]any{"url": "https://example.com/", "max_pages": 0}, "invalid_argument")
	if len(e.Arguments["max_pages"]) == 0 {
		t.Errorf("max_pages 0: %+v", e)
	}
	e = mustFail(t, cs, "crawl_start", map[string]any{"url": "https://shop.example.com/", "schedule": "daily",
		"headers": map[string]string{"Cookie": "session=s3cret"}}, "invalid_argument")
	if len(e.Arguments["schedule"]) == 0 || strings.Contains(e.Message+strings.Join(e.Arguments["headers"], " "), "s3cret") {
		t.Errorf("a schedule with headers: %+v", e)
	}
	e = mustFail(t, cs, "crawl_start", map[string]any{"url": "https://shop.example.com/", "concurrency": 9,
		"headers": map[string]string{"Host": "evil.example"}}, "invalid_argument")
	if len(e.Arguments["concurrency"]) == 0 || len(e.Arguments["headers"]) == 0 {
		t.Errorf("concurrency 9 and a Host header: %+v", e)
	}
	e = mustFail(t, cs, "crawl_issues", map[string]any{"id": c.ID, "type": "no_such_issue"}, "invalid_argument")
	if len(e.Arguments["type"]) == 0 {
		t.Errorf("an unknown issue type: %+v", e)
	}
	other, err := f.acc.CreateUser(context.Background(), "crawler@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	mustFail(t, connect(t, f.options(other.Key)), "crawl_status", map[string]any{"id": c.ID}, "not_found")
}

// TestInvalidArgumentText: an invalid_argument error says each problem
// once, and names an argument the tool does not have beside the one
// missing.
func TestInvalidArgumentText(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f.options(f.key))

	res := call(t, cs, "pincode_lookup", map[string]any{"pincode": "12345"}, nil)
	if got := text(res); strings.Count(got, "must be 6 digits") != 1 {
		t.Errorf("pincode 12345: %q, want the error once", got)
	}
	res = call(t, cs, "analyse_url", map[string]any{"url": "ftp://example.com/"}, nil)
	if got := text(res); strings.Count(got, "must start with http") != 1 {
		t.Errorf("ftp url: %q, want the error once", got)
	}
	e := mustFail(t, cs, "pincode_lookup", map[string]any{"pin": "110001"}, "invalid_argument")
	if len(e.Arguments["pin"]) == 0 || len(e.Arguments["pincode"]) == 0 {
		t.Errorf("pin for pincode: arguments %v, want pin (unknown) and pincode (required)", e.Arguments)
	}
	res = call(t, cs, "pincode_lookup", map[string]any{"pin": "110001"}, nil)
	if got := text(res); !strings.Contains(got, "pin: ") || !strings.Contains(got, "pincode") {
		t.Errorf("pin for pincode: %q, want pin named", got)
	}
}

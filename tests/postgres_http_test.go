package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// TestHTTPEquivalence builds the production handler twice, as serve does,
// once over the memory stores and once over the Postgres stores, sends both
// the same scripted requests and requires the same status, the same
// contract headers and the same JSON body: switching --database-url must
// change nothing a client can observe. The postal part runs over the real
// directory, the embedded snapshot (the fixture dataset with -short); the
// site part scripts accounts, reports and projects with a
// deterministic page fetcher.
func TestHTTPEquivalence(t *testing.T) {
	db, _ := newDatabase(t)
	ds := twinDataset(t)
	if _, err := postgres.ImportDataset(context.Background(), db, ds); err != nil {
		t.Fatalf("ImportDataset: %v", err)
	}
	mem := twinHandler(memory.NewPostalStore(ds), memory.NewAccountStore(), memory.NewReportStore())
	pg := twinHandler(postgres.NewPostalStore(db), postgres.NewAccountStore(db), postgres.NewReportStore(db))
	tw := newTwin(t, mem, pg, "postgres")

	t.Run("postal", func(t *testing.T) {
		tw.t = t
		start := tw.n
		twinPostal(tw, ds)
		t.Logf("postal: %d requests compared (%d offices in the dataset)", tw.n-start, len(ds.Offices))
	})
	t.Run("site", func(t *testing.T) {
		tw.t = t
		start := tw.n
		twinSite(tw)
		t.Logf("accounts, reports and projects: %d requests compared", tw.n-start)
	})
	t.Logf("requests compared by status: %v", tw.status)
}

// twinDataset is the real directory, or the fixture dataset with -short.
func twinDataset(t *testing.T) *postal.Dataset {
	if testing.Short() {
		t.Log("postal part over the fixture dataset (-short)")
		return porttest.PostalDataset()
	}
	return fullDataset(t)
}

// twinPasswords keeps argon2id cheap in tests.
var twinPasswords = accounts.NewPasswords(accounts.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}, accounts.PasswordLimits{})

// twinHandler is the production handler over the given stores, wired as
// serve wires it.
func twinHandler(postalStore ports.PostalStore, accountStore ports.AccountStore, reportStore ports.ReportStore) http.Handler {
	analyser := reports.NewAnalyser(twinFetcher{}, reports.AnalyserConfig{HostLimit: reports.NoLimit})
	mux := http.NewServeMux()
	api := httpapi.NewAPI(mux)
	if err := httpapi.Register(api, httpapi.Routes{
		Health:    health.New(nil),
		Directory: directory.New(postalStore),
		Geocoder:  geocode.New(postalStore, nil),
		Accounts:  accounts.New(accountStore, twinPasswords),
		Reports:   reports.New(reportStore, analyser, twinPasswords, reports.WithClock(twinClock())),
		Projects:  reports.NewProjects(reportStore),
		Share: sharepage.Options{CookieKey: []byte("equivalence key"), Limiter: memory.NewRateLimiter(),
			Attempts: ratelimit.Limit{Requests: 100, Window: time.Minute}},
	}); err != nil {
		panic(err)
	}
	return middleware.NewHandler(mux, middleware.Options{})
}

// twinClock is a clock that advances one second per reading from a fixed
// start: both handlers of a twin read it the same number of times, so their
// reports carry the same times whatever second the requests fall in (the
// page shows them, and projects sort by them).
func twinClock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Second)
		return t
	}
}

// twin sends every request to both handlers, the one over the memory stores
// and the one over another storage, and compares the answers.
type twin struct {
	t          *testing.T
	mem, other http.Handler
	name       string               // the other storage, for messages
	keys       map[string][2]string // user -> API key on memory, on the other
	shares     map[string][2]string // report id -> its share_url on memory, on the other
	n          int
	status     map[int]int // requests compared by status
}

// newTwin compares mem with other, the handler over the storage name.
func newTwin(t *testing.T, mem, other http.Handler, name string) *twin {
	return &twin{t: t, mem: mem, other: other, name: name, keys: map[string][2]string{}, shares: map[string][2]string{}, status: map[int]int{}}
}

// twinReq is one scripted request.
type twinReq struct {
	method, path string
	body         string   // JSON when it starts with { or [, else a form
	user         string   // whose API key to send ("" none)
	header       []string // extra header pairs
	share        string   // a report id: path is ignored, each side gets the report's share_url
}

// twinRes is one answer.
type twinRes struct {
	status int
	header http.Header
	body   any // decoded JSON (numbers as json.Number); nil when not JSON
	raw    string
}

// twinHeaders are the response headers of the contract.
var twinHeaders = []string{"Content-Type", "Cache-Control", "Etag", "Allow", "Retry-After", "Location", "Vary"}

func (tw *twin) send(h http.Handler, r twinReq, key, path string) twinRes {
	tw.t.Helper()
	var body *strings.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
	}
	var req *http.Request
	if body != nil {
		req = httptest.NewRequest(r.method, path, body)
	} else {
		req = httptest.NewRequest(r.method, path, nil)
	}
	switch {
	case strings.HasPrefix(r.body, "{") || strings.HasPrefix(r.body, "["):
		req.Header.Set("Content-Type", "application/json")
	case r.body != "":
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(r.header); i += 2 {
		req.Header.Set(r.header[i], r.header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := twinRes{status: rec.Code, header: rec.Result().Header, raw: rec.Body.String()}
	if strings.Contains(rec.Header().Get("Content-Type"), "json") && rec.Body.Len() > 0 {
		dec := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
		dec.UseNumber()
		if err := dec.Decode(&res.body); err != nil {
			tw.t.Fatalf("%s %s: body is not JSON (%v): %.300s", r.method, r.path, err, rec.Body.String())
		}
	}
	return res
}

// do sends r to both handlers and requires the same status, contract
// headers and body; it returns both answers (for the script's next steps).
func (tw *twin) do(r twinReq) (mem, other twinRes) {
	tw.t.Helper()
	tw.n++
	keys, paths, what := tw.keys[r.user], [2]string{r.path, r.path}, r.method+" "+r.path
	if r.share != "" {
		paths, what = tw.shares[r.share], r.method+" the share page of report "+r.share
		if paths[0] == "" || paths[1] == "" {
			tw.t.Fatalf("report %s has no share_url on both sides: %q", r.share, paths)
		}
	}
	mem, other = tw.send(tw.mem, r, keys[0], paths[0]), tw.send(tw.other, r, keys[1], paths[1])
	tw.status[mem.status]++
	if mem.status != other.status {
		tw.t.Errorf("%s: status memory %d, %s %d\nmemory   %.600s\n%-8s %.600s", what, mem.status, tw.name, other.status, mem.raw, tw.name, other.raw)
		return mem, other
	}
	for _, name := range twinHeaders {
		if m, o := twinShareURLs(mem.header.Values(name)), twinShareURLs(other.header.Values(name)); !reflect.DeepEqual(m, o) {
			tw.t.Errorf("%s: header %s memory %q, %s %q", what, name, m, tw.name, o)
		}
	}
	if mem.body == nil && other.body == nil {
		if twinPage(mem.raw) != twinPage(other.raw) {
			tw.t.Errorf("%s: bodies differ\nmemory   %.600s\n%-8s %.600s", what, mem.raw, tw.name, other.raw)
		}
		return mem, other
	}
	if d := twinDiff(twinScrub(mem.body, ""), twinScrub(other.body, ""), "$", tw.name); d != "" {
		tw.t.Errorf("%s: bodies differ at %s\nmemory   %.600s\n%-8s %.600s", what, d, mem.raw, tw.name, other.raw)
	}
	return mem, other
}

// get is do for a GET without a key.
func (tw *twin) get(path string) (mem, other twinRes) {
	tw.t.Helper()
	return tw.do(twinReq{method: http.MethodGet, path: path})
}

// twinVolatile are the JSON fields whose values legitimately differ between
// two runs whatever the storage: the API key (random) and its displayed
// prefix, and the wall-clock timestamps. twinScrub replaces their non-null
// values with placeholders before the comparison; null stays null (a key
// never used must say so on both), and every other field is compared as is.
// A timestamp's placeholder keeps what does not depend on the clock: that
// it is RFC 3339, its zone, and whether it has sub-microsecond digits
// (which a Postgres timestamptz cannot hold).
var twinVolatile = map[string]string{
	"token": "<api key>", "prefix": "<api key prefix>", "share_url": "<share url>",
	"created_at": "<time>", "generated_at": "<time>", "updated_at": "<time>", "last_used_at": "<time>",
}

// twinShareURL is the form of a share_url (and of the report page's links):
// the random token differs between the two stores, nothing else may.
var twinShareURL = regexp.MustCompile(`/r/[a-z2-7]{26}`)

// twinCSRF is the sign-in form's token on a report page: random per
// visitor.
var twinCSRF = regexp.MustCompile(`name="csrf" value="[^"]*"`)

// twinPage is a page with its share tokens and form tokens replaced by
// placeholders.
func twinPage(raw string) string {
	return twinCSRF.ReplaceAllString(twinShareURL.ReplaceAllString(raw, "/r/<token>"), `name="csrf" value="<csrf>"`)
}

// twinShareURLs is vs with every share URL's token replaced by a placeholder.
func twinShareURLs(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = twinShareURL.ReplaceAllString(v, "/r/<token>")
	}
	return out
}

// twinTime is the placeholder of a timestamp (the value itself when it is
// not RFC 3339).
func twinTime(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	zone, _ := t.Zone()
	if t.Nanosecond()%1000 != 0 {
		return "<time " + zone + ", sub-microsecond>"
	}
	return "<time " + zone + ">"
}

func twinScrub(v any, key string) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = twinScrub(x, k)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = twinScrub(x, key)
		}
		return out
	case string:
		if p, ok := twinVolatile[key]; ok {
			switch {
			case p == "<time>":
				return twinTime(v)
			case key == "share_url" && !twinShareURL.MatchString(v):
				return v // not a share_url: compared as it is
			}
			return p
		}
	}
	return v
}

// twinDiff names the first place where a (memory's) and b (the storage
// other's) differ ("" when equal).
func twinDiff(a, b any, path, other string) string {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok {
			return path + " (object vs other)"
		}
		keys := make([]string, 0, len(a)+len(bm))
		for k := range a {
			keys = append(keys, k)
		}
		for k := range bm {
			if _, dup := a[k]; !dup {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			x, okA := a[k]
			y, okB := bm[k]
			if okA != okB {
				return fmt.Sprintf("%s.%s (present in memory %v, %s %v)", path, k, okA, other, okB)
			}
			if d := twinDiff(x, y, path+"."+k, other); d != "" {
				return d
			}
		}
		return ""
	case []any:
		bs, ok := b.([]any)
		if !ok {
			return path + " (array vs other)"
		}
		if len(a) != len(bs) {
			return fmt.Sprintf("%s (length memory %d, %s %d)", path, len(a), other, len(bs))
		}
		for i := range a {
			if d := twinDiff(a[i], bs[i], fmt.Sprintf("%s[%d]", path, i), other); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("%s (memory %v, %s %v)", path, a, other, b)
	}
	return ""
}

// twinField walks a decoded body: keys for objects, indexes for arrays.
func twinField(v any, path ...string) any {
	for _, p := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func twinString(v any, path ...string) string {
	switch x := twinField(v, path...).(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	}
	return ""
}

// twinPostal scripts every postal and geo endpoint with valid and invalid
// input, drawn deterministically from the dataset.
func twinPostal(tw *twin, ds *postal.Dataset) {
	rng := rand.New(rand.NewPCG(20261123, 5))
	var pins []postal.Pincode
	byPin := map[postal.Pincode][]postal.PostOffice{}
	for _, o := range ds.Offices {
		if _, seen := byPin[o.Pincode]; !seen {
			pins = append(pins, o.Pincode)
		}
		byPin[o.Pincode] = append(byPin[o.Pincode], o)
	}
	step := max(1, len(pins)/400)

	// Lookups and details.
	var sample []string
	for i := 0; i < len(pins); i += step {
		pin := string(pins[i])
		sample = append(sample, pin)
		tw.get("/api/v1/pincodes/" + pin)
		if (i/step)%5 != 0 {
			continue
		}
		tw.get("/api/v1/pincodes/" + pin + "/details")
		o := byPin[pins[i]][rng.IntN(len(byPin[pins[i]]))]
		tw.get("/api/v1/pincodes/" + pin + "/details?post_office=" + url.QueryEscape(strings.ToLower(o.Name)))
		tw.get("/api/v1/pincodes/" + pin + "/details?post_office=" + url.QueryEscape(strings.Fields(o.Name)[0]))
		tw.get("/api/v1/pincodes/" + pin + "/details?post_office=no+such+office")
	}
	for _, bad := range []string{"000000", "012345", "12345", "1234567", "abcdef", "999999", "11000%201", "%EF%BC%91%EF%BC%91%EF%BC%90%EF%BC%90%EF%BC%90%EF%BC%91"} {
		tw.get("/api/v1/pincodes/" + bad)
		tw.get("/api/v1/pincodes/" + bad + "/details")
		tw.get("/api/v1/pincodes/" + bad + "/villages")
	}
	// Conditional and HEAD requests carry the dataset's ETag.
	for _, pin := range sample[:min(5, len(sample))] {
		m, _ := tw.get("/api/v1/pincodes/" + pin)
		tw.do(twinReq{method: http.MethodGet, path: "/api/v1/pincodes/" + pin, header: []string{"If-None-Match", m.header.Get("ETag")}})
		tw.do(twinReq{method: http.MethodHead, path: "/api/v1/pincodes/" + pin})
	}

	// Villages, with paging and beyond the last page.
	vpins := map[postal.Pincode]bool{}
	for i := 0; i < len(ds.Villages) && len(vpins) < 40; i += max(1, len(ds.Villages)/40) {
		vpins[ds.Villages[i].Pincode] = true
	}
	vpins[pins[0]] = true // outside village coverage, or not: either way 200
	for _, pin := range twinSorted(vpins) {
		for _, q := range []string{"", "?per_page=7&page=2", "?per_page=100", "?page=1000", "?per_page=0", "?per_page=101", "?page=0", "?page=x"} {
			tw.get("/api/v1/pincodes/" + pin + "/villages" + q)
		}
	}

	// Nearby (radius fallback with small radii and points at sea) and DIGIPIN nearest.
	var offsets []string
	within := map[string]int{}
	for range 50 {
		lat, lon := 8+rng.Float64()*27, 69+rng.Float64()*28
		radius := []string{"", "&radius=0.1", "&radius=2", "&radius=25", "&radius=100"}[rng.IntN(5)]
		limit := []string{"", "&limit=1", "&limit=7", "&limit=50"}[rng.IntN(4)]
		offsets = append(offsets, fmt.Sprintf("latitude=%.5f&longitude=%.5f", lat, lon))
		m, _ := tw.get(fmt.Sprintf("/api/v1/pincodes/nearby?latitude=%.5f&longitude=%.5f%s%s", lat, lon, radius, limit))
		within[fmt.Sprint(twinField(m.body, "data", "within_radius"))]++
		tw.get(fmt.Sprintf("/api/v1/digipin/nearest?latitude=%.5f&longitude=%.5f&limit=%d", lat, lon, 1+rng.IntN(10)))
	}
	for i := 0; i < len(ds.Offices); i += max(1, len(ds.Offices)/20) {
		if loc := ds.Offices[i].Location; loc != nil { // on an office: distance ties broken by id
			tw.get(fmt.Sprintf("/api/v1/pincodes/nearby?latitude=%v&longitude=%v&limit=10", loc.Latitude, loc.Longitude))
			tw.get(fmt.Sprintf("/api/v1/digipin/nearest?latitude=%v&longitude=%v&limit=10", loc.Latitude, loc.Longitude))
		}
	}
	for _, q := range []string{"", "latitude=28.6", "longitude=77.2", "latitude=91&longitude=77", "latitude=28.6&longitude=181",
		"latitude=28.6&longitude=77.2&radius=0", "latitude=28.6&longitude=77.2&radius=500", "latitude=28.6&longitude=77.2&limit=51",
		"point=28.6,%2077.2", "point=28%C2%B036%2730%22N%2077%C2%B012%27E&radius=0.1", "point=nowhere", "latitude=abc&longitude=77",
		"latitude=0&longitude=0&radius=0.1"} {
		tw.get("/api/v1/pincodes/nearby?" + q)
		tw.get("/api/v1/digipin/nearest?" + q)
	}
	if within["true"] == 0 || within["false"] == 0 {
		tw.t.Errorf("nearby answers by within_radius %v: the script must cover both the radius and the fallback", within)
	}
	tw.get("/api/v1/digipin/nearest?latitude=1&longitude=77")
	tw.get("/api/v1/digipin/nearest?" + offsets[0] + "&limit=11")

	// Offices in DIGIPIN cells of every level (prefixes of offices' codes), with paging; empty cells, bad codes.
	for i := 0; i < len(ds.Offices); i += max(1, len(ds.Offices)/40) {
		loc := ds.Offices[i].Location
		if loc == nil {
			continue
		}
		if c, err := digipin.EncodeCode(loc.Latitude, loc.Longitude); err == nil {
			page := []string{"", "?per_page=25&page=2", "?per_page=100&page=1000"}[i%3]
			tw.get("/api/v1/digipin/" + c.Compact()[:1+i%digipin.Levels] + "/offices" + page)
		}
	}
	for _, code := range []string{"FFF", "39j-49l", "39J49LL8T4", "39A", "39J-49L-L8T4-F", "%20"} {
		tw.get("/api/v1/digipin/" + code + "/offices")
	}
	tw.get("/api/v1/digipin/3/offices?per_page=101")

	// Office search: 50 terms drawn from office names, with paging.
	for range 50 {
		o := ds.Offices[rng.IntN(len(ds.Offices))]
		name := strings.ToLower(o.Name)
		term := []string{name, strings.Fields(name)[0], name[:min(len(name), 3+rng.IntN(4))], string(o.Pincode)[:3+rng.IntN(4)], strings.ToLower(o.District)}[rng.IntN(5)]
		if strings.TrimSpace(term) == "" {
			term = name
		}
		page := []string{"", "&page=2&per_page=25", "&page=1000&per_page=100"}[rng.IntN(3)]
		tw.get("/api/v1/pincodes/search?q=" + url.QueryEscape(term) + page)
	}
	// District names by India Post's spelling (alt_name) match too.
	for _, term := range []string{"aurangabad", "bagalkot", "ahmadabad", "24 paraganas"} {
		tw.get("/api/v1/pincodes/search?per_page=100&q=" + url.QueryEscape(term))
	}
	for _, q := range []string{"", "q=", "q=%20", "q=new+delhi&per_page=101", "q=delhi&page=0", "q=" + strings.Repeat("a", 101), "q=%FF%FE", "q=***"} {
		tw.get("/api/v1/pincodes/search?" + q)
		tw.get("/api/v1/villages/search?" + q)
	}

	// Village search: names with state and district filters, paging.
	for range 30 {
		if len(ds.Villages) == 0 {
			break
		}
		v := ds.Villages[rng.IntN(len(ds.Villages))]
		term := strings.ToLower(v.Name)
		if rng.IntN(2) == 0 {
			term = term[:min(len(term), 2+rng.IntN(3))]
		}
		filter := []string{"", "&state=" + strconv.Itoa(v.StateID), "&state=" + url.QueryEscape(v.State), "&district=" + strconv.Itoa(v.DistrictID),
			"&district=" + url.QueryEscape(v.District), "&state=" + url.QueryEscape(v.State[:min(4, len(v.State))]) + "&district=" + url.QueryEscape(v.District)}[rng.IntN(6)]
		page := []string{"", "&page=2&per_page=5", "&page=1000&per_page=100"}[rng.IntN(3)]
		tw.get("/api/v1/villages/search?q=" + url.QueryEscape(term) + filter + page)
	}
	for _, f := range []string{"&state=nowhere", "&district=nowhere", "&state=a", "&district=Aurangabad", "&state=0", "&state=1&district=999999", "&state=The+Dadra"} {
		tw.get("/api/v1/villages/search?q=ram" + f)
	}

	// States and districts by id, name, prefix, ambiguous and unknown.
	for _, q := range []string{"", "?q=a", "?q=West", "?q=utt", "?q=jammu+and", "?q=zz", "?q=" + strings.Repeat("x", 101)} {
		tw.get("/api/v1/states" + q)
	}
	for _, s := range ds.States {
		for _, ref := range []string{strconv.Itoa(s.ID), s.Name, strings.ToUpper(s.Name), s.Name[:min(3, len(s.Name))], s.Name[:1]} {
			tw.get("/api/v1/states/" + url.PathEscape(ref))
		}
		for _, q := range []string{"", "?q=s", "?q=north", "?q=zz"} {
			tw.get("/api/v1/states/" + strconv.Itoa(s.ID) + "/districts" + q)
		}
	}
	for _, ref := range []string{"0", "99999", "nowhere", "the", "The Dadra", "THE DADRA AND NAGAR HAVELI AND DAMAN AND DIU", "The The Dadra", "-1", "1.5"} {
		tw.get("/api/v1/states/" + url.PathEscape(ref))
		tw.get("/api/v1/states/" + url.PathEscape(ref) + "/districts")
	}
	for i, d := range ds.Districts {
		refs := []string{strconv.Itoa(d.ID)}
		if i%4 == 0 {
			refs = append(refs, d.Name, strings.ToLower(d.Name), d.Name[:min(4, len(d.Name))])
			if d.AltName != "" {
				refs = append(refs, d.AltName)
			}
		}
		for _, ref := range refs {
			tw.get("/api/v1/districts/" + url.PathEscape(ref))
		}
		if i%10 == 0 {
			for _, q := range []string{"", "?per_page=25&page=3", "?per_page=100&page=1000", "?per_page=101", "?page=0"} {
				tw.get("/api/v1/districts/" + strconv.Itoa(d.ID) + "/pincodes" + q)
			}
		}
	}
	for _, ref := range []string{"Aurangabad", "Bilaspur", "Hamirpur", "north", "Shahdara", "Mahe", "Yanam", "nowhere", "0", "99999", "a"} {
		tw.get("/api/v1/districts/" + url.PathEscape(ref))
		tw.get("/api/v1/districts/" + url.PathEscape(ref) + "/pincodes")
	}

	// Batch and validate, JSON only, at most 100 items.
	for i := 0; i < len(sample); i += 10 {
		group := append(append([]string(nil), sample[i:min(i+10, len(sample))]...), "000000", "abc", "999999", sample[i])
		body, _ := json.Marshal(map[string][]string{"pincodes": group})
		tw.do(twinReq{method: http.MethodPost, path: "/api/v1/pincodes/batch", body: string(body)})
		tw.do(twinReq{method: http.MethodPost, path: "/api/v1/pincodes/validate", body: string(body)})
	}
	tooMany := make([]string, 101)
	for i := range tooMany {
		tooMany[i] = sample[i%len(sample)]
	}
	many, _ := json.Marshal(map[string][]string{"pincodes": tooMany})
	for _, body := range []string{string(many), `{"pincodes":[]}`, `{"pincodes":`, `{}`, "pincodes=110001"} {
		tw.do(twinReq{method: http.MethodPost, path: "/api/v1/pincodes/batch", body: body})
		tw.do(twinReq{method: http.MethodPost, path: "/api/v1/pincodes/validate", body: body})
	}

	tw.get("/api/v1/dataset")
	tw.do(twinReq{method: http.MethodPost, path: "/api/v1/dataset"})
}

func twinSorted(set map[postal.Pincode]bool) []string {
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, string(p))
	}
	sort.Strings(out)
	return out
}

// twinSite scripts accounts, reports and projects: two users, reports on
// several hosts, every list filter / sort / page size, updates, deletes
// and the second user's 404s.
func twinSite(tw *twin) {
	post := func(path, body, user string) (twinRes, twinRes) {
		tw.t.Helper()
		return tw.do(twinReq{method: http.MethodPost, path: path, body: body, user: user})
	}
	// Accounts.
	post("/api/v1/register", "email=ada%40example.com&password=correct+horse", "")
	post("/api/v1/register", `{"email":"bob@example.com","password":"battery staple"}`, "")
	post("/api/v1/register", "email=ADA%40example.com&password=another+one", "")
	post("/api/v1/register", "email=not-an-email&password=correct+horse", "")
	post("/api/v1/register", "email=eve%40example.com&password=short", "")
	post("/api/v1/register", `{"email":`, "")
	post("/api/v1/login", "email=ada%40example.com&password=wrong+horse", "")
	post("/api/v1/login", "email=nobody%40example.com&password=correct+horse", "")
	login := func(user, body string) {
		m, p := post("/api/v1/login", body, "")
		tw.keys[user] = [2]string{twinString(m.body, "data", "token"), twinString(p.body, "data", "token")}
		if tw.keys[user][0] == "" || tw.keys[user][1] == "" {
			tw.t.Fatalf("login %s gave no key: %.300s / %.300s", user, m.raw, p.raw)
		}
	}
	login("ada", "email=ada%40example.com&password=correct+horse&name=ada-cli")
	login("bob", `{"email":"Bob@Example.com","password":"battery staple","name":"bob-cli"}`)
	tw.do(twinReq{method: http.MethodGet, path: "/api/v1/account", user: "ada"})
	tw.do(twinReq{method: http.MethodGet, path: "/api/v1/account"})
	tw.keys["nobody"] = [2]string{"not-a-key", "not-a-key"}
	tw.do(twinReq{method: http.MethodGet, path: "/api/v1/account", user: "nobody"})

	// Reports on several hosts, with redirects, error pages and refusals.
	urls := []string{
		"https://example.com/good", "https://www.example.com/poor", "https://example.com/about",
		"http://shop.example.org/good", "https://shop.example.org/cart", "https://blog.test/a-poor-post",
		"https://blog.test/good/2", "https://www.blog.test/gone", "https://old.example.net/?moved-to=https%3A%2F%2Fnew.example.net%2Fgood",
		"https://Example.COM/poor/again", "https://docs.test/x", "https://docs.test/good-y",
	}
	var ids []string
	for i := range 3 {
		for j, u := range urls {
			form := url.Values{"url": {u}}
			switch (i + j) % 4 {
			case 1:
				form.Set("privacy", "1")
			case 2:
				form.Set("privacy", "2")
				form.Set("password", "open sesame")
			}
			m, o := post("/api/v1/reports", form.Encode(), "ada")
			if id := twinString(m.body, "data", "id"); id != "" {
				ids = append(ids, id)
				tw.shares[id] = [2]string{twinString(m.body, "data", "share_url"), twinString(o.body, "data", "share_url")}
			}
		}
	}
	post("/api/v1/reports", "url=https%3A%2F%2Fbob.test%2Fgood", "bob")
	if len(ids) == 0 || ids[0] != "1" {
		tw.t.Fatalf("report ids %v: a fresh store starts at 1", ids)
	}
	for _, form := range []string{"url=https%3A%2F%2Fdown.test%2F", "url=ftp%3A%2F%2Fexample.com%2F", "url=not+a+url", "",
		"url=https%3A%2F%2Fexample.com%2F&privacy=3", "url=https%3A%2F%2Fexample.com%2F&privacy=1&password=secret+one",
		"url=https%3A%2F%2Fexample.com%2F&privacy=2", "url=https%3A%2F%2F" + strings.Repeat("a", 2050) + ".com%2F"} {
		post("/api/v1/reports", form, "ada")
	}
	post("/api/v1/reports", `{"url":"https://json.test/good","privacy":0}`, "ada")
	post("/api/v1/reports", "url=https%3A%2F%2Fexample.com%2F", "")

	list := func() {
		for _, filter := range []string{"", "&search=blog", "&search=WWW.EXAMPLE", "&project=example.com", "&project=www.Shop.Example.org",
			"&result=good", "&result=decent", "&result=bad", "&search=test&result=good"} {
			for _, sortBy := range []string{"id", "generated_at", "url", "result"} {
				for _, order := range []string{"asc", "desc"} {
					for _, per := range []string{"10", "25"} {
						tw.do(twinReq{method: http.MethodGet, user: "ada", path: "/api/v1/reports?sort_by=" + sortBy + "&sort=" + order + "&per_page=" + per + filter})
					}
				}
			}
		}
		for _, q := range []string{"", "?page=2", "?page=4", "?page=100", "?per_page=50", "?per_page=100", "?per_page=11", "?sort_by=score",
			"?sort=up", "?result=great", "?page=0", "?search_by=project"} {
			tw.do(twinReq{method: http.MethodGet, user: "ada", path: "/api/v1/reports" + q})
		}
		for _, sortBy := range []string{"created_at", "project"} {
			for _, order := range []string{"asc", "desc"} {
				for _, q := range []string{"&per_page=10", "&per_page=25", "&per_page=10&page=2", "&search=EXAMPLE", "&search=zz"} {
					tw.do(twinReq{method: http.MethodGet, user: "ada", path: "/api/v1/projects?sort_by=" + sortBy + "&sort=" + order + q})
				}
			}
		}
		tw.do(twinReq{method: http.MethodGet, user: "ada", path: "/api/v1/projects?sort_by=score"})
		tw.do(twinReq{method: http.MethodGet, user: "bob", path: "/api/v1/reports"})
		tw.do(twinReq{method: http.MethodGet, user: "bob", path: "/api/v1/projects"})
	}
	for _, band := range []string{"good", "decent", "bad"} {
		if m, _ := tw.do(twinReq{method: http.MethodGet, user: "ada", path: "/api/v1/reports?result=" + band}); twinString(m.body, "data", "meta", "total") == "0" {
			tw.t.Errorf("no %s report: the fetcher's pages must cover every band", band)
		}
	}
	list()

	// Get, update, delete; the public page; the other user's 404s.
	for i, id := range ids {
		tw.do(twinReq{method: http.MethodGet, user: "ada", path: "/api/v1/reports/" + id})
		tw.do(twinReq{method: http.MethodGet, user: "bob", path: "/api/v1/reports/" + id})
		tw.do(twinReq{method: http.MethodPut, user: "bob", path: "/api/v1/reports/" + id, body: "privacy=0"})
		tw.do(twinReq{method: http.MethodDelete, user: "bob", path: "/api/v1/reports/" + id})
		tw.do(twinReq{method: http.MethodGet, path: "/reports/" + id}) // ids address no page
		tw.do(twinReq{method: http.MethodGet, share: id})
		tw.do(twinReq{method: http.MethodGet, share: id, user: "ada"})
		tw.do(twinReq{method: http.MethodGet, share: id, user: "bob"})
		if i < 4 { // within the password attempts of one client
			tw.do(twinReq{method: http.MethodPost, share: id, body: "password=open+sesame"})
		}
	}
	for i, id := range ids {
		path := "/api/v1/reports/" + id
		switch i % 6 {
		case 0:
			tw.do(twinReq{method: http.MethodPut, user: "ada", path: path, body: "privacy=2&password=new+secret"})
			tw.do(twinReq{method: http.MethodPut, user: "ada", path: path, body: "privacy=0"})
			tw.do(twinReq{method: http.MethodPut, user: "ada", path: path, body: "privacy=2"}) // reuses the stored hash
		case 1:
			tw.do(twinReq{method: http.MethodPut, user: "ada", path: path, body: "results=1"})
		case 2:
			tw.do(twinReq{method: http.MethodPut, user: "ada", path: path, body: `{"privacy":1,"results":1}`})
		case 3:
			tw.do(twinReq{method: http.MethodPut, user: "ada", path: path, body: "privacy=0&password=nope+nope"})
			tw.do(twinReq{method: http.MethodPut, user: "ada", path: path, body: "privacy=7"})
		case 4:
			tw.do(twinReq{method: http.MethodPut, user: "ada", path: path, body: "results=0"})
		case 5:
			tw.do(twinReq{method: http.MethodDelete, user: "ada", path: path})
			tw.do(twinReq{method: http.MethodDelete, user: "ada", path: path})
		}
		tw.do(twinReq{method: http.MethodGet, user: "ada", path: path})
		tw.do(twinReq{method: http.MethodGet, share: id})
	}
	for _, path := range []string{"/api/v1/reports/0", "/api/v1/reports/-1", "/api/v1/reports/abc", "/api/v1/reports/99999999999"} {
		tw.do(twinReq{method: http.MethodGet, user: "ada", path: path})
		tw.do(twinReq{method: http.MethodPut, user: "ada", path: path, body: "privacy=0"})
		tw.do(twinReq{method: http.MethodDelete, user: "ada", path: path})
	}
	list()

	// Projects: delete, the other user's 404, list again.
	for _, p := range []string{"blog.test", "WWW.Example.com", "new.example.net", "nowhere.test"} {
		tw.do(twinReq{method: http.MethodDelete, user: "bob", path: "/api/v1/projects/" + url.PathEscape(p)})
		tw.do(twinReq{method: http.MethodDelete, user: "ada", path: "/api/v1/projects/" + url.PathEscape(p)})
	}
	tw.do(twinReq{method: http.MethodDelete, path: "/api/v1/projects/docs.test"})
	list()

	// API keys: list, rotate, revoke, and the revoked key's 401.
	tw.do(twinReq{method: http.MethodGet, user: "ada", path: "/api/v1/account/keys"})
	login("ada2", "email=ada%40example.com&password=correct+horse&name=second")
	tw.do(twinReq{method: http.MethodGet, user: "ada2", path: "/api/v1/account/keys"})
	m, p := tw.do(twinReq{method: http.MethodPost, user: "ada2", path: "/api/v1/account/api-key", body: "name=rotated"})
	tw.keys["ada3"] = [2]string{twinString(m.body, "data", "token"), twinString(p.body, "data", "token")}
	tw.do(twinReq{method: http.MethodGet, user: "ada2", path: "/api/v1/account"})
	tw.do(twinReq{method: http.MethodGet, user: "ada3", path: "/api/v1/account/keys"})
	tw.do(twinReq{method: http.MethodDelete, user: "ada3", path: "/api/v1/account/keys/1"})
	tw.do(twinReq{method: http.MethodDelete, user: "ada3", path: "/api/v1/account/keys/1"})
	tw.do(twinReq{method: http.MethodDelete, user: "bob", path: "/api/v1/account/keys/3"})
	tw.do(twinReq{method: http.MethodGet, user: "ada", path: "/api/v1/reports"})
	tw.do(twinReq{method: http.MethodGet, user: "ada3", path: "/api/v1/account/keys"})
	tw.do(twinReq{method: http.MethodGet, user: "ada3", path: "/api/v1/reports?per_page=100"})
}

// twinFetcher is a deterministic page fetcher: the page each URL gets
// depends only on the URL. "good" in the path gives a well-built page,
// "poor" a poor one, "gone" a 404 page, anything else a middling page;
// ?moved-to=URL redirects there; the host down.test does not answer.
type twinFetcher struct{}

func (twinFetcher) Fetch(_ context.Context, rawURL string, _ ports.Admit) (*webpage.Fetched, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "down.test" {
		return nil, &webpage.FetchError{Reason: "no response from " + u.Hostname()}
	}
	final, redirects := rawURL, []string(nil)
	if to := u.Query().Get("moved-to"); to != "" {
		final, redirects = to, []string{rawURL}
	}
	status, body := http.StatusOK, twinMiddling
	header := map[string][]string{"Content-Type": {"text/html; charset=utf-8"}}
	switch p := strings.ToLower(final); {
	case strings.Contains(p, "good"):
		body = twinGood
		header["Strict-Transport-Security"] = []string{"max-age=63072000; includeSubDomains"}
		header["Content-Security-Policy"] = []string{"default-src 'self'"}
		header["X-Content-Type-Options"] = []string{"nosniff"}
		header["X-Frame-Options"] = []string{"DENY"}
		header["Referrer-Policy"] = []string{"strict-origin-when-cross-origin"}
		header["Cache-Control"] = []string{"max-age=3600"}
	case strings.Contains(p, "poor"):
		body = twinPoor
	case strings.Contains(p, "gone"):
		status = http.StatusNotFound
	}
	body = strings.ReplaceAll(body, "URL", final)
	f := &webpage.Fetched{
		RequestedURL: rawURL,
		Page: webpage.Response{URL: final, Status: status, Header: header, Body: []byte(body), WireBytes: int64(len(body)),
			Redirects: redirects, Elapsed: time.Duration(len(final)) * 10 * time.Millisecond},
		Document: fetch.ParseHTML([]byte(body)),
	}
	fu, _ := url.Parse(final)
	origin := fu.Scheme + "://" + fu.Host
	if !strings.Contains(final, "poor") {
		robots := "User-agent: *\nDisallow: /private\nSitemap: " + origin + "/sitemap.xml\n"
		f.Robots = &webpage.Response{URL: origin + "/robots.txt", Status: 200, Header: map[string][]string{"Content-Type": {"text/plain"}}, Body: []byte(robots)}
		f.NotFound = &webpage.Response{URL: origin + "/pinsight-probe", Status: 404, Header: header, Body: []byte("not found")}
	} else {
		f.NotFound = &webpage.Response{URL: origin + "/pinsight-probe", Status: 200, Header: header, Body: []byte(body)}
	}
	return f, nil
}

const twinGood = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>A well built page about something useful</title>
<meta name="description" content="A clear description of the page, long enough to be a useful search snippet for readers.">
<link rel="canonical" href="URL"><link rel="icon" href="/favicon.ico">
</head><body><h1>Something useful</h1><h2>Details</h2><p>Plenty of readable text about the subject of this page, written for people.</p>
<img src="/a.png" alt="A picture" width="10" height="10"><a href="/about">About us</a></body></html>`

const twinMiddling = `<!doctype html><html><head><title>Page</title></head><body><h1>One</h1><h1>Two</h1><img src="/b.png"><p>Text.</p></body></html>`

const twinPoor = `<html><body><p>hi</p><img src="http://cdn.example.com/x.png"></body></html>`

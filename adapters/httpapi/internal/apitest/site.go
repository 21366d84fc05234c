package apitest

import (
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// Passwords hashes with cheap costs, keeping the tests fast; production
// uses DefaultPasswordParams.
var Passwords = accounts.NewPasswords(accounts.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}, accounts.PasswordLimits{})

// PostalRoutes are the routes of the directory and geocoder over store (no
// boundaries).
func PostalRoutes(store ports.PostalStore) httpapi.Routes {
	return httpapi.Routes{Health: health.New(nil), Directory: directory.New(store), Geocoder: geocode.New(store, nil)}
}

// FakeAnalyser scores each URL as its table says (default 50), with ten
// high-importance checks of which score/10 pass, so the score is exactly
// what the formula gives. Hosts set down fail as unreachable; busy makes
// every call fail with reports.ErrBusy.
type FakeAnalyser struct {
	mu     sync.Mutex
	scores map[string]int
	final  map[string]string
	down   map[string]bool
	busy   bool
	calls  int
	extra  []pagecheck.Check // checks added to every analysis (in their category)
	// renders, shot, full: see SetRendering.
	renders    bool
	shot, full []byte
}

// NewFakeAnalyser returns an analyser scoring every URL 50.
func NewFakeAnalyser() *FakeAnalyser {
	return &FakeAnalyser{scores: map[string]int{}, final: map[string]string{}, down: map[string]bool{}}
}

// Set makes rawURL score score.
func (f *FakeAnalyser) Set(rawURL string, score int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.scores[rawURL] = score
}

// SetDown makes pages of host fail as unreachable.
func (f *FakeAnalyser) SetDown(host string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down[host] = true
}

// SetBusy makes every analysis fail with reports.ErrBusy (or not).
func (f *FakeAnalyser) SetBusy(busy bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.busy = busy
}

// SetExtra adds checks to every analysis from now on (nil: none).
func (f *FakeAnalyser) SetExtra(checks []pagecheck.Check) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.extra = checks
}

// Calls counts the analyses asked for.
func (f *FakeAnalyser) Calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// analyse is the analysis of rawURL, as the tables say; f.mu is held.
func (f *FakeAnalyser) analyse(rawURL string) (pagecheck.Analysis, error) {
	f.calls++
	u, _ := url.Parse(rawURL)
	switch {
	case f.busy:
		return pagecheck.Analysis{}, reports.ErrBusy
	case f.down[u.Hostname()]:
		return pagecheck.Analysis{}, &webpage.FetchError{Reason: "no response from " + u.Hostname()}
	}
	score, found := f.scores[rawURL]
	if !found {
		score = 50
	}
	final := rawURL
	if to, found := f.final[rawURL]; found {
		final = to
	}
	res := pagecheck.Results{}
	for i := range 10 {
		cat := pagecheck.Categories[i%len(pagecheck.Categories)]
		c := pagecheck.Check{
			ID: "check_" + strconv.Itoa(i), Title: "Check " + strconv.Itoa(i), Category: cat, Importance: pagecheck.High,
			Passed: i < score/10, Value: map[string]any{"n": i}, Message: "message " + strconv.Itoa(i),
		}
		if !c.Passed { // a failed check says what to change and blames two elements of three
			c.Errors, c.Advice = []string{"failed"}, "advice "+strconv.Itoa(i)
			c.Offending, c.OffendingOmitted = []string{`<a href="javascript:go(` + strconv.Itoa(i) + `)">more</a>`, "<applet>"}, 1
		}
		res[cat] = append(res[cat], c)
	}
	res[pagecheck.SEO] = append(res[pagecheck.SEO], pagecheck.Check{ID: "title", Title: "Title", Category: pagecheck.SEO, Importance: pagecheck.Low, Passed: true, Value: "Welcome <home>", Message: "The title is fine."})
	for _, c := range f.extra {
		res[c.Category] = append(res[c.Category], c)
	}
	s := res.Score(pagecheck.DefaultWeights)
	return pagecheck.Analysis{URL: final, Results: res, Score: s, Rating: pagecheck.RatingFor(s)}, nil
}

// SiteServer is the production handler with every site-analysis route,
// in-memory stores and the fake analyser.
type SiteServer struct {
	H        http.Handler
	Analyser *FakeAnalyser
}

// NewSiteServer returns a site server hashing passwords with Passwords.
func NewSiteServer(t *testing.T) *SiteServer {
	t.Helper()
	return NewSiteServerWith(t, Passwords)
}

// NewSiteServerWith is NewSiteServer hashing passwords with pw.
func NewSiteServerWith(t *testing.T, pw accounts.PasswordHasher) *SiteServer {
	t.Helper()
	an := NewFakeAnalyser()
	store := memory.NewReportStore()
	h := NewHandler(t, httpapi.Routes{
		Accounts: accounts.New(memory.NewAccountStore(), pw),
		Reports:  reports.New(store, an, pw),
		Projects: reports.NewProjects(store),
		Share: sharepage.Options{CookieKey: []byte("test key"), Limiter: memory.NewRateLimiter(),
			Attempts: ratelimit.Limit{Requests: 5, Window: 1 << 40}},
	})
	return &SiteServer{H: h, Analyser: an}
}

// CreateReport posts a form and returns the created report.
func (s *SiteServer) CreateReport(t *testing.T, token, form string) wire.ReportData {
	t.Helper()
	res := Do(t, s.H, http.MethodPost, "/api/v1/reports", FormType, form, Bearer(token)...)
	if res.Status != http.StatusCreated {
		t.Fatalf("create %q = %d %s %v", form, res.Status, res.Message, res.Errors)
	}
	var r wire.ReportData
	res.Decode(t, &r)
	return r
}

// ListReports GETs a report list and decodes it, failing unless it is 200.
func (s *SiteServer) ListReports(t *testing.T, token, query string) wire.ReportsData {
	t.Helper()
	res := Do(t, s.H, http.MethodGet, "/api/v1/reports?"+query, "", "", append(Bearer(token), "Accept", "application/json")...)
	if res.Status != http.StatusOK {
		t.Fatalf("list ?%s = %d %s %v", query, res.Status, res.Message, res.Errors)
	}
	var d wire.ReportsData
	res.Decode(t, &d)
	return d
}

// IDPath is the API path of report id.
func IDPath(id int64) string { return "/api/v1/reports/" + strconv.FormatInt(id, 10) }

// Itoa formats n in base 10.
func Itoa(n int64) string { return strconv.FormatInt(n, 10) }

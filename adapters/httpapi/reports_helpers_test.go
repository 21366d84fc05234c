package httpapi_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/site"
)

// fakeAnalyser scores each URL as its table says (default 50), with ten
// high-importance checks of which score/10 pass, so the score is exactly
// what the formula gives. Hosts in down fail as unreachable; busy makes
// every call fail with reports.ErrBusy.
type fakeAnalyser struct {
	mu     sync.Mutex
	scores map[string]int
	final  map[string]string
	down   map[string]bool
	busy   bool
	calls  int
	// extra are checks added to every analysis (in their category).
	extra []site.Check
}

func newFakeAnalyser() *fakeAnalyser {
	return &fakeAnalyser{scores: map[string]int{}, final: map[string]string{}, down: map[string]bool{}}
}

func (f *fakeAnalyser) set(rawURL string, score int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.scores[rawURL] = score
}

func (f *fakeAnalyser) Analyse(_ context.Context, _ int64, rawURL string) (site.Analysis, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	u, _ := url.Parse(rawURL)
	switch {
	case f.busy:
		return site.Analysis{}, reports.ErrBusy
	case f.down[u.Hostname()]:
		return site.Analysis{}, &site.FetchError{Reason: "no response from " + u.Hostname()}
	}
	score, found := f.scores[rawURL]
	if !found {
		score = 50
	}
	final := rawURL
	if to, found := f.final[rawURL]; found {
		final = to
	}
	res := site.Results{}
	for i := range 10 {
		cat := site.Categories[i%len(site.Categories)]
		c := site.Check{
			ID: "check_" + strconv.Itoa(i), Title: "Check " + strconv.Itoa(i), Category: cat, Importance: site.High,
			Passed: i < score/10, Value: map[string]any{"n": i}, Message: "message " + strconv.Itoa(i),
		}
		if !c.Passed { // a failed check says what to change and blames two elements of three
			c.Errors, c.Advice = []string{"failed"}, "advice "+strconv.Itoa(i)
			c.Offending, c.OffendingOmitted = []string{`<a href="javascript:go(` + strconv.Itoa(i) + `)">more</a>`, "<applet>"}, 1
		}
		res[cat] = append(res[cat], c)
	}
	res[site.SEO] = append(res[site.SEO], site.Check{ID: "title", Title: "Title", Category: site.SEO, Importance: site.Low, Passed: true, Value: "Welcome <home>", Message: "The title is fine."})
	for _, c := range f.extra {
		res[c.Category] = append(res[c.Category], c)
	}
	s := res.Score(site.DefaultWeights)
	return site.Analysis{URL: final, Results: res, Score: s, Rating: site.RatingFor(s)}, nil
}

// siteServer is the production handler with every site-analysis route,
// in-memory stores and the fake analyser.
type siteServer struct {
	h        http.Handler
	analyser *fakeAnalyser
}

func newSiteServer(t *testing.T) *siteServer {
	t.Helper()
	return newSiteServerWith(t, testPasswords)
}

// newSiteServerWith is newSiteServer hashing passwords with pw.
func newSiteServerWith(t *testing.T, pw accounts.PasswordHasher) *siteServer {
	t.Helper()
	an := newFakeAnalyser()
	store := memory.NewReportStore()
	h := newHandler(t, httpapi.Routes{
		Accounts: accounts.New(memory.NewAccountStore(), pw),
		Reports:  reports.New(store, an, pw),
		Projects: reports.NewProjects(store),
		Share: httpapi.ShareOptions{CookieKey: []byte("test key"), Limiter: memory.NewRateLimiter(),
			Attempts: ratelimit.Limit{Requests: 5, Window: 1 << 40}},
	})
	return &siteServer{h: h, analyser: an}
}

// createReport posts a form and returns the created report.
func (s *siteServer) createReport(t *testing.T, token, form string) httpapi.ReportData {
	t.Helper()
	res := do(t, s.h, http.MethodPost, "/api/v1/reports", formType, form, bearer(token)...)
	if res.Status != http.StatusCreated {
		t.Fatalf("create %q = %d %s %v", form, res.Status, res.Message, res.Errors)
	}
	var r httpapi.ReportData
	res.data(t, &r)
	return r
}

// listReports GETs a report list and decodes it, failing unless it is 200.
func (s *siteServer) listReports(t *testing.T, token, query string) httpapi.ReportsData {
	t.Helper()
	res := do(t, s.h, http.MethodGet, "/api/v1/reports?"+query, "", "", append(bearer(token), "Accept", "application/json")...)
	if res.Status != http.StatusOK {
		t.Fatalf("list ?%s = %d %s %v", query, res.Status, res.Message, res.Errors)
	}
	var d httpapi.ReportsData
	res.data(t, &d)
	return d
}

func idPath(id int64) string { return "/api/v1/reports/" + strconv.FormatInt(id, 10) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

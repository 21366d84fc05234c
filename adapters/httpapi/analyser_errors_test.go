package httpapi_test

import (
	"context"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// refusingFetcher answers every URL with an empty page, admitted like the
// real fetcher does (host and a public address), except the host
// "internal.example", which it refuses like the SSRF guard does. Fetches
// of the host "slow.example" wait for gate.
type refusingFetcher struct {
	gate    chan struct{}
	started chan struct{}
}

func (f refusingFetcher) Fetch(ctx context.Context, rawURL string, admit ports.Admit) (*webpage.Fetched, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if u.Hostname() == "internal.example" {
		return nil, &webpage.FetchError{Reason: "refused: not a public address", Refused: true}
	}
	if admit != nil {
		if err := admit(ctx, ports.Target{Host: u.Hostname(), Addr: netip.MustParseAddr("198.51.100.1")}); err != nil {
			return nil, err
		}
	}
	if u.Hostname() == "slow.example" {
		f.started <- struct{}{}
		<-f.gate
	}
	return &webpage.Fetched{RequestedURL: rawURL, Page: webpage.Response{URL: rawURL, Status: 200}}, nil
}

func analyserHandler(t *testing.T, f ports.PageFetcher, cfg reports.AnalyserConfig) http.Handler {
	t.Helper()
	store := memory.NewReportStore()
	cfg.Limiter = memory.NewRateLimiter()
	return apitest.NewHandler(t, httpapi.Routes{
		Accounts: accounts.New(memory.NewAccountStore(), apitest.Passwords),
		Reports:  reports.New(store, reports.NewAnalyser(f, cfg), apitest.Passwords),
		Projects: reports.NewProjects(store),
	})
}

// rateLimited checks a 429 in the envelope with a Retry-After of want
// seconds (0: any from 1 to 60).
func rateLimited(t *testing.T, what string, res apitest.Response, want int) {
	t.Helper()
	secs, err := strconv.Atoi(res.Header.Get("Retry-After"))
	if res.Status != http.StatusTooManyRequests || res.Code != "rate_limited" || err != nil ||
		(want > 0 && secs != want) || (want == 0 && (secs < 1 || secs > 60)) {
		t.Errorf("%s = %d %q %q Retry-After %q, want 429 rate_limited", what, res.Status, res.Code, res.Message, res.Header.Get("Retry-After"))
	}
}

// TestAnalyserErrorsOverHTTP: the real analyser's per-site throttle answers
// 429 with Retry-After; a refused target is 422 on url.
func TestAnalyserErrorsOverHTTP(t *testing.T) {
	h := analyserHandler(t, refusingFetcher{}, reports.AnalyserConfig{HostLimit: ratelimit.Limit{Requests: 1, Window: time.Minute}})
	ada := apitest.Login(t, h, "ada@example.com")
	if res := apitest.Do(t, h, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://busy.example/", apitest.Bearer(ada)...); res.Status != http.StatusCreated {
		t.Fatalf("first analysis = %d %s", res.Status, res.Message)
	}
	res := apitest.Do(t, h, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://www.busy.example/other", apitest.Bearer(ada)...)
	rateLimited(t, "second analysis of the site", res, 0)
	res = apitest.Do(t, h, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=http://internal.example/", apitest.Bearer(ada)...)
	if res.Status != http.StatusUnprocessableEntity || len(res.Errors["url"]) != 1 {
		t.Errorf("refused target = %d %v", res.Status, res.Errors)
	}
	res = apitest.Do(t, h, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=http://2130706433/", apitest.Bearer(ada)...)
	if res.Status != http.StatusUnprocessableEntity || len(res.Errors["url"]) != 1 {
		t.Errorf("numeric host = %d %v", res.Status, res.Errors)
	}
}

// TestUserQuotasOverHTTP (finding 4): over the daily quota, creating and
// re-analysing are 429 with Retry-After until the quota frees, for that
// user only; over the analyses at once, 429 with Retry-After 5 while
// another user still gets a slot.
func TestUserQuotasOverHTTP(t *testing.T) {
	f := refusingFetcher{gate: make(chan struct{}), started: make(chan struct{}, 4)}
	h := analyserHandler(t, f, reports.AnalyserConfig{UserDaily: ratelimit.Limit{Requests: 4, Window: 24 * time.Hour}, HostLimit: reports.NoLimit})
	ada, bob := apitest.Login(t, h, "ada@example.com"), apitest.Login(t, h, "bob@example.com")
	var id int64
	for i := range 3 {
		res := apitest.Do(t, h, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://site"+strconv.Itoa(i)+".example/", apitest.Bearer(ada)...)
		var r httpapi.ReportData
		res.Decode(t, &r)
		if res.Status != http.StatusCreated {
			t.Fatalf("analysis %d = %d %s", i+1, res.Status, res.Message)
		}
		id = r.ID
	}
	if res := apitest.Do(t, h, http.MethodPut, "/api/v1/reports/"+strconv.FormatInt(id, 10), apitest.FormType, "results=1", apitest.Bearer(ada)...); res.Status != http.StatusOK {
		t.Fatalf("re-analysis within the quota = %d %s", res.Status, res.Message)
	}
	rateLimited(t, "creation over the daily quota", apitest.Do(t, h, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://more.example/", apitest.Bearer(ada)...), 6*3600)
	rateLimited(t, "re-analysis over the daily quota", apitest.Do(t, h, http.MethodPut, "/api/v1/reports/"+strconv.FormatInt(id, 10), apitest.FormType, "results=1", apitest.Bearer(ada)...), 6*3600)

	var wg sync.WaitGroup
	for range reports.DefaultUserConcurrent {
		wg.Go(func() {
			apitest.Do(t, h, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://slow.example/", apitest.Bearer(bob)...)
		})
		<-f.started
	}
	rateLimited(t, "bob's third analysis at once", apitest.Do(t, h, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://slow.example/", apitest.Bearer(bob)...), 5)
	carol := apitest.Login(t, h, "carol@example.com")
	if res := apitest.Do(t, h, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://fast.example/", apitest.Bearer(carol)...); res.Status != http.StatusCreated {
		t.Errorf("another user while bob's analyses run = %d %s", res.Status, res.Message)
	}
	close(f.gate)
	wg.Wait()
}

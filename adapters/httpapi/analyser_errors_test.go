package httpapi_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/site"
)

// refusingFetcher answers every URL with an empty page, except the host
// "internal.example", which it refuses like the SSRF guard does.
type refusingFetcher struct{}

func (refusingFetcher) Fetch(_ context.Context, rawURL string) (*site.Fetched, error) {
	if rawURL == "http://internal.example/" {
		return nil, &site.FetchError{Reason: "refused: internal.example resolves to 10.0.0.1 is a private address", Refused: true}
	}
	return &site.Fetched{RequestedURL: rawURL, Page: site.Response{URL: rawURL, Status: 200}}, nil
}

// TestAnalyserErrorsOverHTTP: the real analyser's per-host throttle answers
// 429 with Retry-After; a refused target is 422 on url.
func TestAnalyserErrorsOverHTTP(t *testing.T) {
	store := memory.NewReportStore()
	an := app.NewAnalyser(refusingFetcher{}, app.AnalyserConfig{HostLimit: ratelimit.Limit{Requests: 1, Window: time.Minute}})
	h := newHandler(t, httpapi.Routes{
		Accounts: app.NewAccounts(memory.NewAccountStore(), testPasswords),
		Reports:  app.NewReports(store, an, testPasswords),
		Projects: app.NewProjects(store),
	})
	ada := login(t, h, "ada@example.com")
	if res := do(t, h, http.MethodPost, "/api/v1/reports", formType, "url=https://busy.example/", bearer(ada)...); res.Status != http.StatusCreated {
		t.Fatalf("first analysis = %d %s", res.Status, res.Message)
	}
	res := do(t, h, http.MethodPost, "/api/v1/reports", formType, "url=https://busy.example/other", bearer(ada)...)
	if secs, err := strconv.Atoi(res.Header.Get("Retry-After")); res.Status != http.StatusTooManyRequests || res.Code != "rate_limited" || err != nil || secs < 1 || secs > 60 {
		t.Errorf("second analysis of the host = %d %q Retry-After %q", res.Status, res.Code, res.Header.Get("Retry-After"))
	}
	res = do(t, h, http.MethodPost, "/api/v1/reports", formType, "url=http://internal.example/", bearer(ada)...)
	if res.Status != http.StatusUnprocessableEntity || len(res.Errors["url"]) != 1 {
		t.Errorf("refused target = %d %v", res.Status, res.Errors)
	}
}

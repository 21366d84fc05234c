package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
)

// TestCreateReportIdempotencyKey: POST /reports sent again with its
// Idempotency-Key (as JSON or a form alike) answers 201 with the same
// report as it is now and Idempotent-Replayed, creating nothing; the key
// with another body, or a malformed key, is 422 on Idempotency-Key.
func TestCreateReportIdempotencyKey(t *testing.T) {
	s := apitest.NewSiteServer(t)
	ada := apitest.Login(t, s.H, "ada@example.com")
	key := []string{"Idempotency-Key", "9b1f0c3e-1d2a-4c55-8e7f-0a1b2c3d4e5f"}
	first := apitest.Do(t, s.H, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://alpha.com/&privacy=0", append(apitest.Bearer(ada), key...)...)
	var a httpapi.ReportData
	first.Decode(t, &a)
	if first.Status != 201 || first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first POST = %d, Idempotent-Replayed %q", first.Status, first.Header.Get("Idempotent-Replayed"))
	}
	apitest.Do(t, s.H, http.MethodPut, apitest.IDPath(a.ID), apitest.FormType, "privacy=1", apitest.Bearer(ada)...)
	for _, body := range []struct{ ctype, body string }{{apitest.FormType, "url=https://alpha.com/&privacy=0"}, {apitest.JSONType, `{"url":"https://alpha.com/","privacy":0}`}} {
		again := apitest.Do(t, s.H, http.MethodPost, "/api/v1/reports", body.ctype, body.body, append(apitest.Bearer(ada), key...)...)
		var b httpapi.ReportData
		again.Decode(t, &b)
		if again.Status != 201 || again.Header.Get("Idempotent-Replayed") != "true" || b.ID != a.ID || b.Privacy != 1 || b.ShareURL != a.ShareURL {
			t.Errorf("replay (%s) = %d, Idempotent-Replayed %q, report %d privacy %d; want 201, true, report %d as it is now (privacy 1)",
				body.ctype, again.Status, again.Header.Get("Idempotent-Replayed"), b.ID, b.Privacy, a.ID)
		}
	}
	if l := s.ListReports(t, ada, ""); l.Meta.Total != 1 || s.Analyser.Calls() != 1 {
		t.Errorf("%d reports and %d analyses after replays, want 1 and 1", l.Meta.Total, s.Analyser.Calls())
	}
	other := apitest.Do(t, s.H, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://alpha.com/other", append(apitest.Bearer(ada), key...)...)
	if other.Status != 422 || len(other.Errors["Idempotency-Key"]) != 1 {
		t.Errorf("the key with another body = %d %v, want 422 on Idempotency-Key", other.Status, other.Errors)
	}
	for _, bad := range []string{strings.Repeat("k", 256), "clé"} {
		res := apitest.Do(t, s.H, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://alpha.com/x", append(apitest.Bearer(ada), "Idempotency-Key", bad)...)
		if res.Status != 422 || len(res.Errors["Idempotency-Key"]) != 1 {
			t.Errorf("key %.20q = %d %v, want 422 on Idempotency-Key", bad, res.Status, res.Errors)
		}
	}
	// Keys are per user.
	bob := apitest.Login(t, s.H, "bob@example.com")
	if res := apitest.Do(t, s.H, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://alpha.com/&privacy=0", append(apitest.Bearer(bob), key...)...); res.Status != 201 || res.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("bob's request with ada's key text = %d, Idempotent-Replayed %q; want a report of his own", res.Status, res.Header.Get("Idempotent-Replayed"))
	}
}

// blockedAnalyser holds every analysis until release is closed.
type blockedAnalyser struct {
	*apitest.FakeAnalyser
	entered, release chan struct{}
}

func (b blockedAnalyser) AnalyseWithScreenshots(ctx context.Context, userID int64, rawURL string, mode pagecheck.RenderMode, shots report.ScreenshotMode) (pagecheck.Analysis, report.Screenshots, error) {
	b.entered <- struct{}{}
	<-b.release
	return b.FakeAnalyser.AnalyseWithScreenshots(ctx, userID, rawURL, mode, shots)
}

// TestCreateReportInProgress: while a request with an Idempotency-Key
// runs, the same request is 409 with Retry-After, not a second analysis.
func TestCreateReportInProgress(t *testing.T) {
	an := blockedAnalyser{apitest.NewFakeAnalyser(), make(chan struct{}, 1), make(chan struct{})}
	store := memory.NewReportStore()
	h := apitest.NewHandler(t, httpapi.Routes{
		Accounts: accounts.New(memory.NewAccountStore(), apitest.Passwords),
		Reports:  reports.New(store, an, apitest.Passwords),
		Projects: reports.NewProjects(store),
	})
	ada := apitest.Login(t, h, "ada@example.com")
	headers := append(apitest.Bearer(ada), "Idempotency-Key", "slow-one")
	first := make(chan apitest.Response, 1)
	go func() {
		first <- apitest.Do(t, h, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://alpha.com/", headers...)
	}()
	<-an.entered
	second := make(chan apitest.Response, 1)
	go func() {
		second <- apitest.Do(t, h, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://alpha.com/", headers...)
	}()
	select {
	case res := <-second:
		if res.Status != 409 || res.Code != "conflict" || res.Header.Get("Retry-After") == "" {
			t.Errorf("the same request while the first runs = %d %q, Retry-After %q; want 409 conflict with Retry-After",
				res.Status, res.Code, res.Header.Get("Retry-After"))
		}
	case <-time.After(10 * time.Second):
		t.Error("the same request while the first runs waits for an analysis of its own")
	}
	close(an.release)
	if r := <-first; r.Status != 201 {
		t.Errorf("first request = %d", r.Status)
	}
	if an.Calls() != 1 {
		t.Errorf("%d analyses, want 1", an.Calls())
	}
}

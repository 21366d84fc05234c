package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// flakyReports is a report store whose database can be taken down: every
// call then fails as an adapter reports a database it cannot reach in time.
type flakyReports struct {
	ports.ReportStore
	down atomic.Bool
}

func (f *flakyReports) err() error {
	if f.down.Load() {
		return fmt.Errorf("%w: context deadline exceeded", ports.ErrUnavailable)
	}
	return nil
}

func (f *flakyReports) Report(ctx context.Context, userID, id int64) (report.Report, error) {
	if err := f.err(); err != nil {
		return report.Report{}, err
	}
	return f.ReportStore.Report(ctx, userID, id)
}

func (f *flakyReports) ReportByToken(ctx context.Context, token string) (report.Report, error) {
	if err := f.err(); err != nil {
		return report.Report{}, err
	}
	return f.ReportStore.ReportByToken(ctx, token)
}

func (f *flakyReports) Reports(ctx context.Context, userID int64, q report.ReportQuery) ([]report.Report, int, error) {
	if err := f.err(); err != nil {
		return nil, 0, err
	}
	return f.ReportStore.Reports(ctx, userID, q)
}

// TestStoreUnavailable: a database the store cannot reach in time answers
// 503 with Retry-After, in the envelope on the API and on the report page,
// and the same requests succeed once it is back.
func TestStoreUnavailable(t *testing.T) {
	store := &flakyReports{ReportStore: memory.NewReportStore()}
	h := apitest.NewHandler(t, httpapi.Routes{
		Accounts: accounts.New(memory.NewAccountStore(), apitest.Passwords),
		Reports:  reports.New(store, apitest.NewFakeAnalyser(), apitest.Passwords),
		Projects: reports.NewProjects(store),
	})
	key := apitest.Login(t, h, "ada@example.com")
	res := apitest.Do(t, h, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://alpha.com/&privacy=0", apitest.Bearer(key)...)
	var r httpapi.ReportData
	res.Decode(t, &r)

	store.down.Store(true)
	for _, path := range []string{"/api/v1/reports", apitest.IDPath(r.ID)} {
		res := apitest.Do(t, h, http.MethodGet, path, "", "", apitest.Bearer(key)...)
		if res.Status != 503 || res.Code != "unavailable" || res.Header.Get("Retry-After") != "5" {
			t.Errorf("GET %s with the database down = %d %q, Retry-After %q; want 503 unavailable, Retry-After 5",
				path, res.Status, res.Code, res.Header.Get("Retry-After"))
		}
	}
	if p := apitest.GetPage(t, h, r.ShareURL); p.Status != 503 || p.Header.Get("Retry-After") != "5" {
		t.Errorf("report page with the database down = %d, Retry-After %q", p.Status, p.Header.Get("Retry-After"))
	}

	store.down.Store(false)
	for _, path := range []string{"/api/v1/reports", apitest.IDPath(r.ID)} {
		if res := apitest.Do(t, h, http.MethodGet, path, "", "", apitest.Bearer(key)...); res.Status != 200 {
			t.Errorf("GET %s once the database is back = %d", path, res.Status)
		}
	}
	if p := apitest.GetPage(t, h, r.ShareURL); p.Status != 200 {
		t.Errorf("report page once the database is back = %d", p.Status)
	}
}

// hangingReports is a report store whose list waits until its caller's
// context ends, then fails with that context's error, as a database
// driver does.
type hangingReports struct{ ports.ReportStore }

func (h hangingReports) Reports(ctx context.Context, _ int64, _ report.ReportQuery) ([]report.Report, int, error) {
	<-ctx.Done()
	return nil, 0, fmt.Errorf("sqlite: list reports: %w", ctx.Err())
}

// TestClientGoneIsNotAServerError: a request whose client went away while
// the store worked is answered 499 (client closed the request), not a 500:
// it is no failure of the server's.
func TestClientGoneIsNotAServerError(t *testing.T) {
	store := hangingReports{memory.NewReportStore()}
	h := apitest.NewHandler(t, httpapi.Routes{
		Accounts: accounts.New(memory.NewAccountStore(), apitest.Passwords),
		Reports:  reports.New(store, apitest.NewFakeAnalyser(), apitest.Passwords),
	})
	key := apitest.Login(t, h, "ada@example.com")
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/api/v1/reports", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	time.AfterFunc(20*time.Millisecond, cancel)
	if res := apitest.Send(h, req); res.Status != 499 {
		t.Errorf("a request whose client went away = %d %s, want 499", res.Status, res.Body)
	}
}

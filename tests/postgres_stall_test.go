package tests

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	tcpostgres "github.com/testcontainers/testcontainers-go/modules/postgres"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// stallTimeout is the statement timeout of TestPostgresStalledDatabase: the
// longest one store operation may wait.
const stallTimeout = 2 * time.Second

// TestPostgresStalledDatabase freezes the database's processes (docker
// pause: connections stay open and the kernel still accepts new ones, but
// nothing ever answers) under a server whose pool holds open connections.
// Every request gives up at its one deadline: report lists and writes,
// postal lookups, key checks and the report page answer 503 with Retry-After within one
// statement timeout, concurrently (more requests than connections), instead of
// hanging until the database wakes up; once it does, the same requests
// succeed again without a restart.
func TestPostgresStalledDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a database of its own and pauses it (-short)")
	}
	ctx := context.Background()
	c, db := stallableDatabase(t)
	if _, err := postgres.ImportDataset(ctx, db, porttest.PostalDataset()); err != nil {
		t.Fatal(err)
	}
	acc, reportStore, offices := postgres.NewAccountStore(db), postgres.NewReportStore(db), postgres.NewPostalStore(db)
	srv := httptest.NewServer(twinHandler(offices, acc, reportStore))
	defer srv.Close()
	web := &http.Client{Timeout: 30 * time.Second} // far beyond the deadline: a hang shows as a timeout

	send := func(method, path, key, body string) (int, http.Header, string, error) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		res, err := web.Do(req)
		if err != nil {
			return 0, nil, "", err
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header, string(raw), nil
	}
	if status, _, body, err := send(http.MethodPost, "/api/v1/register", "", "email=ada%40example.com&password=correct+horse"); err != nil || status != 201 {
		t.Fatalf("register = %d %s %v", status, body, err)
	}
	_, _, body, _ := send(http.MethodPost, "/api/v1/login", "", "email=ada%40example.com&password=correct+horse")
	var login struct{ Data struct{ Token string } }
	_ = json.Unmarshal([]byte(body), &login)
	key := login.Data.Token
	_, _, body, _ = send(http.MethodPost, "/api/v1/reports", key, "url="+url.QueryEscape("https://example.com/good")+"&privacy=0")
	var created struct {
		Data struct {
			ShareURL string `json:"share_url"`
		}
	}
	if err := json.Unmarshal([]byte(body), &created); err != nil || created.Data.ShareURL == "" {
		t.Fatalf("create report = %s", body)
	}
	user, err := acc.UserByEmail(ctx, "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}

	type call struct {
		name string
		run  func() error // nil error: the call succeeded
	}
	apiBody := func(method, path, key, form string) call {
		return call{method + " " + path, func() error {
			status, h, body, err := send(method, path, key, form)
			switch {
			case err != nil:
				return err
			case status == 503 && h.Get("Retry-After") != "":
				return ports.ErrUnavailable
			case status != 200 && status != 201:
				return fmt.Errorf("status %d, Retry-After %q: %.200s", status, h.Get("Retry-After"), body)
			}
			return nil
		}}
	}
	api := func(method, path, key string) call { return apiBody(method, path, key, "") }
	store := func(name string, fn func(context.Context) error) call {
		return call{name, func() error { return fn(context.Background()) }}
	}
	pin, _ := postal.ParsePincode("800001")
	calls := []call{
		api(http.MethodGet, "/api/v1/reports", key),
		api(http.MethodGet, "/api/v1/projects", key),
		api(http.MethodGet, "/api/v1/pincodes/800001", ""),
		api(http.MethodGet, "/api/v1/states", ""),
		api(http.MethodGet, created.Data.ShareURL, ""),
		apiBody(http.MethodPost, "/api/v1/reports", key, "url="+url.QueryEscape("https://example.com/good")+"&privacy=0"),
		store("ReportStore.Reports", func(ctx context.Context) error {
			_, _, err := reportStore.Reports(ctx, user.ID, report.ReportQuery{SortBy: report.SortReportsByID, Page: paging.Page{Number: 1, PerPage: 100}})
			return err
		}),
		store("AccountStore.UserByEmail", func(ctx context.Context) error {
			_, err := acc.UserByEmail(ctx, "ada@example.com")
			return err
		}),
		store("PostalStore.OfficesByPincode", func(ctx context.Context) error {
			_, err := offices.OfficesByPincode(ctx, pin)
			return err
		}),
		// A request's operations share one deadline: the second of them
		// gets only what the first left.
		store("two operations of one request", func(ctx context.Context) error {
			ctx = ports.WithStoreBudget(ctx)
			_, err1 := acc.UserByEmail(ctx, "ada@example.com")
			_, _, err2 := reportStore.Reports(ctx, user.ID, report.ReportQuery{SortBy: report.SortReportsByID, Page: paging.Page{Number: 1, PerPage: 100}})
			if err1 == nil || err2 == nil {
				return errors.Join(err1, err2)
			}
			return err2
		}),
	}
	// runAll runs every call twice at once (more than the pool's four
	// connections) and returns each one's error and the slowest time. A
	// call still running after hangAfter counts as hung (errHung): it
	// finishes in the background once the database answers again.
	errHung := errors.New("no answer: hung")
	const hangAfter = time.Minute // far above slowestAllowed: a call still running then hangs
	runAll := func() (map[string]error, time.Duration) {
		var mu sync.Mutex
		errs := map[string]error{}
		for _, c := range calls {
			errs[c.name] = errHung
		}
		done := map[string]int{}
		var slowest time.Duration
		var wg sync.WaitGroup
		for range 2 {
			for _, c := range calls {
				wg.Go(func() {
					start := time.Now()
					err := c.run()
					mu.Lock()
					defer mu.Unlock()
					slowest = max(slowest, time.Since(start))
					if done[c.name]++; done[c.name] == 1 || err != nil {
						errs[c.name] = err
					}
				})
			}
		}
		finished := make(chan struct{})
		go func() { wg.Wait(); close(finished) }()
		select {
		case <-finished:
		case <-time.After(hangAfter):
			slowest = hangAfter
		}
		mu.Lock()
		defer mu.Unlock()
		for name, n := range done {
			if n < 2 {
				errs[name] = errHung
			}
		}
		return maps.Clone(errs), slowest
	}
	if errs, _ := runAll(); errors.Join(mapValues(errs)...) != nil { // also fills the pool with open connections
		t.Fatalf("before the stall: %v", errs)
	}

	unpause := pauseContainer(t, c)

	errs, slowest := runAll()
	for name, err := range errs {
		if !errors.Is(err, ports.ErrUnavailable) {
			t.Errorf("%s with the database stalled: %v; want 503 with Retry-After (ErrUnavailable)", name, err)
		}
	}
	// A request's store calls (the key, then the data) share one deadline,
	// the wait for a connection included. The bound is five times that
	// deadline, so a loaded machine's scheduling does not fail the test: a
	// call bounded per statement (two or more timeouts) or not at all still
	// does (the target, one deadline, is logged below).
	if limit := 5 * stallTimeout; slowest > limit {
		t.Errorf("with the database stalled the slowest call took %v, want at most %v", slowest, limit)
	}
	t.Logf("database stalled: the slowest call answered after %v", slowest.Round(time.Millisecond))

	unpause()
	deadline := time.Now().Add(2 * time.Minute) // far above the seconds a recovery takes
	for {
		errs, _ := runAll()
		if err := errors.Join(mapValues(errs)...); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("2 min after the database woke up calls still fail: %v", err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// stallableDatabase starts a PostgreSQL container of its own and opens it
// migrated, with stallTimeout as connect and statement timeout and a pool
// of four, for tests that pause it (pauseContainer).
func stallableDatabase(t *testing.T) (*tcpostgres.PostgresContainer, *postgres.DB) {
	t.Helper()
	ctx := context.Background()
	c := runPostGIS(t)
	dbURL, err := c.ConnectionString(ctx, "sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	db, err := postgres.Open(ctx, postgres.Config{URL: dbURL, ConnectTimeout: stallTimeout, StatementTimeout: stallTimeout, MaxOpenConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := postgres.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	return c, db
}

func mapValues[K comparable, V any](m map[K]V) []V {
	out := make([]V, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

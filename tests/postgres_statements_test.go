package tests

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
	"github.com/pinsight/pinsight/geo"
	"github.com/pinsight/pinsight/ports/porttest"
)

// statementCounter is a bun.QueryHook counting the statements sent.
type statementCounter struct {
	mu    sync.Mutex
	sent  []string
	count int
}

func (c *statementCounter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

func (c *statementCounter) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.count++
	q, _, _ := strings.Cut(e.Query, "\n")
	if len(q) > 60 {
		q = q[:60] + "..."
	}
	c.sent = append(c.sent, q)
}

// take returns the statements counted since the last take.
func (c *statementCounter) take() (int, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, sent := c.count, c.sent
	c.count, c.sent = 0, nil
	return n, sent
}

// TestPostgresStatementsPerRequest counts the statements the production
// handler sends to Postgres, serving postal reads from the replica as
// serve does: a postal lookup costs none, an authenticated request none
// once its key is verified (the first costs the key and its user), and a
// report its transaction. docs/SCALING.md quotes the figures it logs.
func TestPostgresStatementsPerRequest(t *testing.T) {
	db, _ := newDatabase(t)
	ds := importedDataset(t, db)
	counter := &statementCounter{}
	hooked := db.WithQueryHook(counter)
	h := twinHandler(memory.NewPostalStore(ds), postgres.NewAccountStore(hooked), postgres.NewReportStore(hooked))
	send := func(method, path, key, body string) int {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	creds := `{"email":"ada@example.com","password":"correct horse battery"}`
	send(http.MethodPost, "/api/v1/register", "", creds)
	req := httptest.NewRequest(http.MethodPost, "/api/v1/login", strings.NewReader(creds))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	key := between(rec.Body.String(), `"token":"`, `"`)
	counter.take()

	for range 10 {
		if code := send(http.MethodGet, "/api/v1/pincodes/800001", "", ""); code != 200 {
			t.Fatalf("lookup = %d", code)
		}
	}
	if n, sent := counter.take(); n != 0 {
		t.Errorf("10 postal lookups sent %d statements, want 0 (served from the replica): %q", n, sent)
	}
	send(http.MethodGet, "/api/v1/account", key, "")
	n, sent := counter.take()
	t.Logf("first authenticated request: %d statements %q", n, sent)
	for range 10 {
		if code := send(http.MethodGet, "/api/v1/account", key, ""); code != 200 {
			t.Fatalf("GET /account = %d", code)
		}
	}
	if n, sent := counter.take(); n != 0 {
		t.Errorf("10 more GET /account with a verified key sent %d statements, want 0: %q", n, sent)
	}
	for i := range 3 {
		if code := send(http.MethodPost, "/api/v1/reports", key, `{"url":"https://example.com/good"}`); code != 201 {
			t.Fatalf("POST /reports = %d", code)
		}
		n, sent := counter.take()
		t.Logf("POST /reports #%d: %d statements %q", i+1, n, sent)
	}
	send(http.MethodGet, "/api/v1/reports", key, "")
	n, sent = counter.take()
	t.Logf("GET /reports: %d statements %q", n, sent)
}

// importedDataset imports the test dataset into db and reads it back, as
// an instance's replica does.
func importedDataset(t *testing.T, db *postgres.DB) *postal.Dataset {
	t.Helper()
	ctx := context.Background()
	if _, err := postgres.ImportDataset(ctx, db, porttest.PostalDataset()); err != nil {
		t.Fatal(err)
	}
	ds, _, err := postgres.LoadDataset(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// between returns the text of s between the first open and the next close.
func between(s, open, close string) string {
	_, rest, _ := strings.Cut(s, open)
	v, _, _ := strings.Cut(rest, close)
	return v
}

// TestPostgresReviewCountsStatements: a directory counting Postgres reviews
// reads every count once, at LoadCounts; then lookups and nearby lists of
// pincodes never asked before send no statement, with or without reviews;
// a write refreshed by the instance reads its pincode in one transaction.
func TestPostgresReviewCountsStatements(t *testing.T) {
	db, _ := newDatabase(t)
	ctx := context.Background()
	ds := importedDataset(t, db)
	withUsers(t, db, 1)
	patna := review.Office{Pincode: "800001", NameKey: "patna", OfficeType: "HO"}
	store := postgres.NewReviewStore(db)
	if _, _, err := store.PutReview(ctx, review.Review{Office: patna, UserID: 1, Rating: 5, CreatedAt: time.Now(), UpdatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	counter := &statementCounter{}
	dir := directory.NewWithReviews(memory.NewPostalStore(ds), postgres.NewReviewStore(db.WithQueryHook(counter)))
	if err := dir.LoadCounts(ctx); err != nil {
		t.Fatal(err)
	}
	n, sent := counter.take()
	t.Logf("LoadCounts: %d statements %q", n, sent)
	for _, pin := range []string{"800001", "800008", "226001", "400001", "700001"} {
		if _, _, err := dir.Lookup(ctx, pin); err != nil {
			t.Fatal(err)
		}
		if _, err := dir.CountsVersion(ctx, postal.Pincode(pin)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := dir.Nearby(ctx, geo.NearQuery{Point: geo.Point{Lat: 25.6, Lon: 85.2}, Limit: 10}); err != nil {
		t.Fatal(err)
	}
	if n, sent := counter.take(); n != 0 {
		t.Errorf("first lookups and a nearby list sent %d statements, want 0: %q", n, sent)
	}
	if _, err := store.SetLike(ctx, 1, patna, true); err != nil {
		t.Fatal(err)
	}
	if err := dir.RefreshCounts(ctx, "800001"); err != nil {
		t.Fatal(err)
	}
	n, sent = counter.take()
	t.Logf("RefreshCounts of one pincode: %d statements %q", n, sent)
	o, err := dir.Office(ctx, 1) // Patna GPO
	if err != nil || o.Feedback != (postal.Feedback{Reviews: 1, RatingSum: 5, Likes: 1}) {
		t.Errorf("office 1 after the refresh: %+v, %v; want the review and the like", o.Feedback, err)
	}
	if n, sent := counter.take(); n != 0 {
		t.Errorf("reading the office after the refresh sent %d statements, want 0: %q", n, sent)
	}
}

package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
)

// rawDB opens the file behind SQLite's back, as an operator's sqlite3 would.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	uri := "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	raw, err := sql.Open("sqlite", uri)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = raw.Close() })
	return raw
}

func sampleReport(userID int64, url string, at time.Time) report.Report {
	r := report.Report{UserID: userID, Privacy: report.Private, CreatedAt: at, UpdatedAt: at}
	if err := r.Apply(pagecheck.Analysis{URL: url, Score: 60, Results: pagecheck.Results{pagecheck.SEO: {{ID: "title", Category: pagecheck.SEO, Importance: pagecheck.High, Value: "t"}}}}, at); err != nil {
		panic(err)
	}
	return r
}

// TestIDsNeverReused deletes the newest report and key: AUTOINCREMENT
// never hands their ids out again (a plain rowid would).
func TestIDsNeverReused(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	withUsers(t, db, 1)
	reports, accounts := sqlite.NewReportStore(db), sqlite.NewAccountStore(db)
	now := time.Now()
	r1, _ := reports.CreateReport(ctx, sampleReport(1, "https://a.example/", now))
	r2, err := reports.CreateReport(ctx, sampleReport(1, "https://b.example/", now))
	if err != nil || r2.ID <= r1.ID {
		t.Fatalf("CreateReport = %+v, %v", r2, err)
	}
	if err := reports.DeleteReport(ctx, 1, r2.ID); err != nil {
		t.Fatal(err)
	}
	if r3, _ := reports.CreateReport(ctx, sampleReport(1, "https://c.example/", now)); r3.ID <= r2.ID {
		t.Errorf("report id after deleting the newest = %d, want > %d", r3.ID, r2.ID)
	}
	k1, _ := accounts.CreateKey(ctx, account.APIKey{UserID: 1, Name: "a", Prefix: "p", Hash: "h1", CreatedAt: now})
	if err := accounts.RevokeKey(ctx, 1, k1.ID); err != nil {
		t.Fatal(err)
	}
	if k2, _ := accounts.CreateKey(ctx, account.APIKey{UserID: 1, Name: "b", Prefix: "p", Hash: "h2", CreatedAt: now}); k2.ID <= k1.ID {
		t.Errorf("key id after revoking the newest = %d, want > %d", k2.ID, k1.ID)
	}
}

// TestStoredForm reads the file directly: times are fixed-width UTC text
// to the microsecond, results are JSON, and what the store returns is what
// it stored.
func TestStoredForm(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	db := openFile(t, path)
	withUsers(t, db, 1)
	at := time.Date(2026, 11, 23, 15, 30, 0, 123456789, time.FixedZone("IST", 5*3600+1800))
	r, err := sqlite.NewReportStore(db).CreateReport(ctx, sampleReport(1, "https://www.example.com/x", at))
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2026, 11, 23, 10, 0, 0, 123456000, time.UTC)
	if !r.CreatedAt.Equal(want) || r.CreatedAt.Location() != time.UTC || !r.GeneratedAt.Equal(want) {
		t.Errorf("CreateReport times = %v, %v; want %v in UTC", r.CreatedAt, r.GeneratedAt, want)
	}
	got, _ := sqlite.NewReportStore(db).Report(ctx, 1, r.ID)
	if !got.CreatedAt.Equal(r.CreatedAt) || got.CreatedAt.Location() != time.UTC {
		t.Errorf("Report created_at = %v, want %v", got.CreatedAt, r.CreatedAt)
	}
	var created, results string
	var valid int
	if err := rawDB(t, path).QueryRow("SELECT created_at, results, json_valid(results) FROM reports WHERE id = ?", r.ID).Scan(&created, &results, &valid); err != nil {
		t.Fatal(err)
	}
	if created != "2026-11-23T10:00:00.123456Z" || valid != 1 || results[0] != '{' {
		t.Errorf("stored created_at %q, results %q (valid JSON %d)", created, results, valid)
	}
}

// TestLookupsWithNUL: no stored text holds NUL, so a lookup by such a value
// finds nothing, as in the memory store.
func TestLookupsWithNUL(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	withUsers(t, db, 1)
	accounts, reports := sqlite.NewAccountStore(db), sqlite.NewReportStore(db)
	if _, err := reports.CreateReport(ctx, sampleReport(1, "https://a.example/", time.Now())); err != nil {
		t.Fatal(err)
	}
	if _, err := accounts.UserByEmail(ctx, "u1@example.com\x00"); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("UserByEmail with NUL err = %v", err)
	}
	if _, err := accounts.KeyByHash(ctx, "h\x00", time.Now()); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("KeyByHash with NUL err = %v", err)
	}
	all := paging.Page{Number: 1, PerPage: 10}
	if got, total, err := reports.Reports(ctx, 1, report.ReportQuery{Search: "a\x00", SortBy: "id", Page: all}); err != nil || total != 0 || len(got) != 0 {
		t.Errorf("Reports(search with NUL) = %v, %d, %v", got, total, err)
	}
	if got, total, err := reports.Projects(ctx, 1, report.ProjectQuery{Search: "a\x00", SortBy: "project", Page: all}); err != nil || total != 0 || len(got) != 0 {
		t.Errorf("Projects(search with NUL) = %v, %d, %v", got, total, err)
	}
	if _, err := reports.DeleteProject(ctx, 1, "a.example\x00"); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("DeleteProject with NUL err = %v", err)
	}
}

// TestForeignKeys: a key for a user that does not exist is refused.
func TestForeignKeys(t *testing.T) {
	accounts := sqlite.NewAccountStore(openDB(t))
	_, err := accounts.CreateKey(context.Background(), account.APIKey{UserID: 42, Name: "n", Prefix: "p", Hash: "h", CreatedAt: time.Now()})
	if !errors.Is(err, account.ErrNotFound) {
		t.Errorf("CreateKey for a missing user err = %v, want account.ErrNotFound", err)
	}
}

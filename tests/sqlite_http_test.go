package tests

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/httpapitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/releases"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/app/reviews"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports/porttest"
)

// openSQLite opens a migrated database in a fresh file of t.TempDir.
func openSQLite(t *testing.T) *sqlite.DB {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, sqlite.Config{URL: "sqlite:" + filepath.Join(t.TempDir(), "pinsight.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if _, err := sqlite.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestHTTPEquivalenceSQLite is TestHTTPEquivalence's site script over the
// memory stores and over the SQLite stores (no Docker needed): the same
// status, contract headers and JSON for every request. The postal part is
// left out: with sqlite: storage the directory is the memory store on both
// sides.
func TestHTTPEquivalenceSQLite(t *testing.T) {
	db := openSQLite(t)
	ds := porttest.PostalDataset()
	mem := twinHandler(memory.NewPostalStore(ds), memory.NewAccountStore(), memory.NewReportStore())
	lite := twinHandler(memory.NewPostalStore(ds), sqlite.NewAccountStore(db), sqlite.NewReportStore(db))
	tw := newTwin(t, mem, lite, "sqlite")
	twinSite(tw)
	t.Logf("accounts, reports and projects: %d requests compared, by status: %v", tw.n, tw.status)
}

// TestSQLiteHostileInput sends hostile values to every operation of the
// full API over the SQLite stores, as TestPostgresHostileInput does over
// Postgres: never a 500, always the envelope.
func TestSQLiteHostileInput(t *testing.T) {
	db := openSQLite(t)
	pw := accounts.NewPasswords(accounts.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}, accounts.PasswordLimits{})
	reportStore := sqlite.NewReportStore(db)
	analyser := reports.NewAnalyser(knownSite{host: "a.com", page: samplePage()}, reports.AnalyserConfig{HostLimit: reports.NoLimit})
	postalStore := memory.NewPostalStore(porttest.PostalDataset())
	reviewStore := sqlite.NewReviewStore(db)
	dir := directory.NewWithReviews(postalStore, reviewStore)
	httpapitest.HostileRoutes(t, httpapi.Routes{
		Accounts:  accounts.New(sqlite.NewAccountStore(db), pw),
		Directory: dir,
		Geocoder:  geocode.New(postalStore, nil),
		Reports:   reports.New(reportStore, analyser, pw),
		Projects:  reports.NewProjects(reportStore),
		Reviews:   reviews.New(dir, reviewStore, reviews.Config{Limiter: memory.NewRateLimiter(), WriteLimit: hostileWrites}),
		Releases:  releases.New(sqlite.NewReleaseStore(db)),
	})
}

// hostileWrites lets every hostile review write reach validation and the
// store instead of the quota.
var hostileWrites = ratelimit.Limit{Requests: 1 << 20, Window: time.Minute}

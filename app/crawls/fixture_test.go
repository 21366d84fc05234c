package crawls_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/riverjobs"
	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/tests/fixturecrawl"
)

// memoryEnv is a crawl store and queue in memory.
func memoryEnv(testing.TB) fixturecrawl.Env {
	reports := memory.NewReportStore()
	store := memory.NewCrawlStore(reports)
	jobs := memory.NewJobs(reports, ports.JobSettings{})
	jobs.Crawls(store)
	return fixturecrawl.Env{Store: store, Queue: jobs, UserID: 1}
}

// sqliteEnv is a crawl store and queue in a new SQLite file, with a
// user owning the crawls.
func sqliteEnv(tb testing.TB) fixturecrawl.Env {
	tb.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, sqlite.Config{URL: "sqlite:" + filepath.Join(tb.TempDir(), "pinsight.db")})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	if _, err := sqlite.Migrate(ctx, db); err != nil {
		tb.Fatal(err)
	}
	jobs, err := sqlite.NewJobs(db, riverjobs.Config{})
	if err != nil {
		tb.Fatal(err)
	}
	u, err := sqlite.NewAccountStore(db).CreateUser(ctx, account.User{Email: "crawler@example.com"})
	if err != nil {
		tb.Fatal(err)
	}
	return fixturecrawl.Env{Store: sqlite.NewCrawlStore(db), Queue: jobs, UserID: u.ID}
}

func TestFixtureCrawlMemory(t *testing.T) { fixturecrawl.Test(t, memoryEnv) }

func TestFixtureCrawlSQLite(t *testing.T) { fixturecrawl.Test(t, sqliteEnv) }

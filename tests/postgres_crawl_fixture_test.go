package tests

import (
	"context"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/adapters/riverjobs"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/tests/fixturecrawl"
)

// TestPostgresFixtureCrawl crawls the fixture site with the crawler over
// a PostgreSQL crawl store and queue: the planted issues exactly, and the
// same after a stopped run is resumed.
func TestPostgresFixtureCrawl(t *testing.T) {
	fixturecrawl.Test(t, func(tb testing.TB) fixturecrawl.Env {
		db, _ := newDatabase(tb)
		u, err := postgres.NewAccountStore(db).CreateUser(context.Background(), account.User{Email: "crawler@example.com", CreatedAt: time.Now()})
		if err != nil {
			tb.Fatal(err)
		}
		jobs, err := postgres.NewJobs(db, riverjobs.Config{})
		if err != nil {
			tb.Fatal(err)
		}
		return fixturecrawl.Env{Store: postgres.NewCrawlStore(db), Queue: jobs, UserID: u.ID}
	})
}

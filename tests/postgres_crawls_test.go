package tests

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/ports/porttest"
)

// postgresCrawlStores are the crawl, report and account stores of a new
// database.
func postgresCrawlStores(tb testing.TB) porttest.CrawlStores {
	db, _ := newDatabase(tb)
	return porttest.CrawlStores{Crawls: postgres.NewCrawlStore(db), Reports: postgres.NewReportStore(db), Accounts: postgres.NewAccountStore(db)}
}

func TestPostgresCrawlStore(t *testing.T) {
	porttest.TestCrawlStore(t, func(t *testing.T) porttest.CrawlStores { return postgresCrawlStores(t) })
}

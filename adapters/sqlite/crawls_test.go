package sqlite_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/ports/porttest"
)

// crawlStores are the crawl, report and account stores of a new database.
func crawlStores(tb testing.TB) porttest.CrawlStores {
	db := openDB(tb)
	return porttest.CrawlStores{Crawls: sqlite.NewCrawlStore(db), Reports: sqlite.NewReportStore(db), Accounts: sqlite.NewAccountStore(db)}
}

func TestCrawlStore(t *testing.T) {
	porttest.TestCrawlStore(t, func(t *testing.T) porttest.CrawlStores { return crawlStores(t) })
}

// BenchmarkCrawlList: go test ./adapters/sqlite -run '^$' -bench CrawlList -benchmem
func BenchmarkCrawlList(b *testing.B) {
	porttest.BenchmarkCrawlList(b, crawlStores)
}

package memory_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/ports/porttest"
)

// crawlStores are a new crawl store with its report and account stores.
func crawlStores(testing.TB) porttest.CrawlStores {
	reports := memory.NewReportStore()
	return porttest.CrawlStores{Crawls: memory.NewCrawlStore(reports), Reports: reports, Accounts: memory.NewAccountStore()}
}

func TestCrawlStore(t *testing.T) {
	porttest.TestCrawlStore(t, func(t *testing.T) porttest.CrawlStores { return crawlStores(t) })
}

// BenchmarkCrawlList: go test ./adapters/memory -run '^$' -bench CrawlList -benchmem
func BenchmarkCrawlList(b *testing.B) {
	porttest.BenchmarkCrawlList(b, crawlStores)
}

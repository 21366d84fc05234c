package fetch_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestPageFetcherContract(t *testing.T) {
	porttest.TestPageFetcher(t, func(t *testing.T, allow []string) ports.PageFetcher {
		f, err := fetch.New(fetch.Config{AllowTargets: allow, Log: quiet})
		if err != nil {
			t.Fatal(err)
		}
		return f
	})
}

package memory_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestReviewStore(t *testing.T) {
	porttest.TestReviewStore(t, func(*testing.T) ports.ReviewStore { return memory.NewReviewStore() })
}

// BenchmarkReviewCounts: go test ./adapters/memory -run '^$' -bench ReviewCounts -benchmem
func BenchmarkReviewCounts(b *testing.B) {
	porttest.BenchmarkReviewCounts(b, func(testing.TB) ports.ReviewStore { return memory.NewReviewStore() })
}

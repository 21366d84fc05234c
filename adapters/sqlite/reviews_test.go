package sqlite_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestReviewStore(t *testing.T) {
	porttest.TestReviewStore(t, func(t *testing.T) ports.ReviewStore {
		db := openDB(t)
		withUsers(t, db, 3) // the suite's reviews belong to users 1 to 3
		return sqlite.NewReviewStore(db)
	})
}

// BenchmarkReviewCounts: go test ./adapters/sqlite -run '^$' -bench ReviewCounts -benchmem
func BenchmarkReviewCounts(b *testing.B) {
	porttest.BenchmarkReviewCounts(b, func(tb testing.TB) ports.ReviewStore {
		db := openDB(tb)
		withUsers(tb, db, 3)
		return sqlite.NewReviewStore(db)
	})
}

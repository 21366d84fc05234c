package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/domain/account"
)

// openDB opens a migrated database in a fresh file under t.TempDir, closed
// when the test ends.
func openDB(t testing.TB) *sqlite.DB {
	t.Helper()
	return openFile(t, filepath.Join(t.TempDir(), "pinsight.db"))
}

// openFile opens and migrates the database at path, closed when the test
// ends.
func openFile(t testing.TB, path string) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), sqlite.Config{URL: "sqlite:" + path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if _, err := sqlite.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return db
}

// withUsers creates users 1..n: reports reference their owner.
func withUsers(t testing.TB, db *sqlite.DB, n int) {
	t.Helper()
	accounts := sqlite.NewAccountStore(db)
	for i := 1; i <= n; i++ {
		u, err := accounts.CreateUser(context.Background(), account.User{Email: fmt.Sprintf("u%d@example.com", i), CreatedAt: time.Now()})
		if err != nil || u.ID != int64(i) {
			t.Fatalf("user %d = %+v, %v", i, u, err)
		}
	}
}

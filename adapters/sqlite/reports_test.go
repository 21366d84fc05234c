package sqlite_test

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/ports/porttest"
)

// stores are the report and account stores of a new database, with raw
// access for the suite's counts and user deletions.
func stores(tb testing.TB) porttest.ReportStores {
	db := openDB(tb)
	raw := rawWriter(tb, db.Path())
	return porttest.ReportStores{Reports: sqlite.NewReportStore(db), Accounts: sqlite.NewAccountStore(db),
		StoredScreenshots: func(t testing.TB) int {
			var n int
			if err := raw.QueryRow("SELECT count(*) FROM report_screenshots").Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		},
		DeleteUser: func(t testing.TB, id int64) {
			if _, err := raw.Exec("DELETE FROM users WHERE id = ?", id); err != nil {
				t.Fatal(err)
			}
		}}
}

// rawWriter is a plain connection to the database file at path that
// enforces foreign keys, as the store's own do (a user's deletion then
// cascades).
func rawWriter(tb testing.TB, path string) *sql.DB {
	tb.Helper()
	uri := "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path) +
		"?_pragma=foreign_keys(1)&_pragma=busy_timeout(5000)"
	raw, err := sql.Open("sqlite", uri)
	if err != nil {
		tb.Fatal(err)
	}
	raw.SetMaxOpenConns(1)
	tb.Cleanup(func() { _ = raw.Close() })
	return raw
}

func TestReportStore(t *testing.T) {
	porttest.TestReportStore(t, func(t *testing.T) porttest.ReportStores { return stores(t) })
}

// BenchmarkReportList: go test ./adapters/sqlite -run '^$' -bench ReportList -benchmem
func BenchmarkReportList(b *testing.B) {
	porttest.BenchmarkReportList(b, stores)
}

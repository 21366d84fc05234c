package sqlstore

import (
	"database/sql"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/schema"

	"github.com/pinsight/pinsight/domain/report"
)

// render is the SQL bun writes for "SELECT ?" with v in dialect d.
func render(d schema.Dialect, v any) string {
	return bun.NewDB(&sql.DB{}, d).NewSelect().ColumnExpr("?", v).String()
}

func TestStampIsWrittenPerDialect(t *testing.T) {
	at := time.Date(2026, 11, 26, 5, 2, 37, 123456789, time.FixedZone("IST", 19800))
	if got, want := render(sqlitedialect.New(), stampOf(at)), "SELECT '2026-11-25T23:32:37.123456Z'"; got != want {
		t.Errorf("SQLite: %s, want %s", got, want)
	}
	if got, want := render(pgdialect.New(), stampOf(at)), "SELECT '2026-11-25 23:32:37.123456+00:00'"; got != want {
		t.Errorf("PostgreSQL: %s, want %s", got, want)
	}
}

func TestStampScansTextAndTimes(t *testing.T) {
	want := time.Date(2026, 11, 26, 5, 2, 37, 123456000, time.UTC)
	for _, v := range []any{"2026-11-26T05:02:37.123456Z", []byte("2026-11-26T05:02:37.123456Z"), want.In(time.FixedZone("IST", 19800)).Add(789)} {
		var s stamp
		if err := s.Scan(v); err != nil || !s.utc().Equal(want) || s.utc().Location() != time.UTC {
			t.Errorf("Scan(%v) = %v, %v; want %v in UTC", v, s.utc(), err, want)
		}
	}
	var s stamp
	for _, bad := range []any{"2026-11-26 05:02:37", 42} {
		if err := s.Scan(bad); err == nil {
			t.Errorf("Scan(%v) accepted", bad)
		}
	}
}

func TestIDListIsWrittenPerDialect(t *testing.T) {
	if got, want := render(sqlitedialect.New(), idList{3, 14, 15}), "SELECT '[3,14,15]'"; got != want {
		t.Errorf("SQLite: %s, want %s", got, want)
	}
	if got, want := render(pgdialect.New(), idList{3, 14, 15}), "SELECT '{3,14,15}'"; got != want {
		t.Errorf("PostgreSQL: %s, want %s", got, want)
	}
	if got, want := render(pgdialect.New(), idList{}), "SELECT '{}'"; got != want {
		t.Errorf("empty: %s, want %s", got, want)
	}
}

func TestIDListScansBothForms(t *testing.T) {
	for in, want := range map[string]idList{"{1,2,3}": {1, 2, 3}, "[1, 2, 3]": {1, 2, 3}, "{}": {}, "[]": {}} {
		var l idList
		if err := l.Scan(in); err != nil || !slices.Equal(l, want) {
			t.Errorf("Scan(%q) = %v, %v; want %v", in, l, err, want)
		}
	}
	var l idList
	if err := l.Scan("[1,x]"); err == nil {
		t.Error(`Scan("[1,x]") accepted`)
	}
}

func TestUnstorable(t *testing.T) {
	sqlite, pg := dialect{}, dialect{pg: true}
	for _, tt := range []struct {
		text         string
		onSQLite, pg bool
	}{{"plain", false, false}, {"a\x00b", true, true}, {"\xff", false, true}, {"", false, false}} {
		if got := sqlite.unstorable("ok", tt.text); got != tt.onSQLite {
			t.Errorf("SQLite unstorable(%q) = %v", tt.text, got)
		}
		if got := pg.unstorable(tt.text); got != tt.pg {
			t.Errorf("PostgreSQL unstorable(%q) = %v", tt.text, got)
		}
	}
}

// TestOutcomeColumn: the http_status column holds what earlier versions
// stored (0, 201, 202), so their rows replay as they did.
func TestOutcomeColumn(t *testing.T) {
	for status, want := range map[int]report.Outcome{0: report.OutcomeNone, 201: report.OutcomeCreated, 202: report.OutcomeAccepted} {
		if got := outcomeOf(status); got != want {
			t.Errorf("outcomeOf(%d) = %v, want %v", status, got, want)
		}
		if got := statusOf(want); got != status {
			t.Errorf("statusOf(%v) = %d, want %d", want, got, status)
		}
	}
}

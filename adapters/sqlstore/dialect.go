package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"
	bundialect "github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/schema"
)

// This file holds everything the store does differently on SQLite and on
// PostgreSQL; the rest of the package is one code path for both.

// dialect is the SQL dialect of an engine's connections.
type dialect struct{ pg bool }

func dialectOf(db *bun.DB) dialect { return dialect{pg: db.Dialect().Name() == bundialect.PG} }

// isPG reports whether gen writes PostgreSQL.
func isPG(gen schema.QueryGen) bool { return gen.Dialect().Name() == bundialect.PG }

// contains is the condition that column holds the query argument as a
// substring, compared byte for byte (no LIKE wildcards, no case folding).
func (d dialect) contains(column string) string {
	if d.pg {
		return "strpos(" + column + ", ?) > 0"
	}
	return "instr(" + column + ", ?) > 0"
}

// listHas is the condition that column, a JSON list of strings (jsonb on
// PostgreSQL, JSON text on SQLite), holds the query argument.
func (d dialect) listHas(column string) string {
	if d.pg {
		return column + " @> jsonb_build_array(?::text)"
	}
	return "EXISTS (SELECT 1 FROM json_each(" + column + ") WHERE value = ?)"
}

// least is the smaller of two expressions: least() on PostgreSQL,
// SQLite's two-argument min().
func (d dialect) least(a, b string) string {
	if d.pg {
		return "least(" + a + ", " + b + ")"
	}
	return "min(" + a + ", " + b + ")"
}

// binary is column under the collation that orders text by its bytes, as
// the memory store orders strings.
func (d dialect) binary(column string) string {
	if d.pg {
		return column + ` COLLATE "C"`
	}
	return column + " COLLATE BINARY"
}

// jobArg is the integer argument name (such as report_id) of a job of
// River's river_job table: jsonb on PostgreSQL, a JSONB blob on SQLite
// (River's SQLite migrations store args with jsonb()), which json_extract
// reads. name is a constant of this package, never input.
func (d dialect) jobArg(name string) string {
	if d.pg {
		return "(args->>'" + name + "')::bigint"
	}
	return "json_extract(args, '$." + name + "')"
}

// byID makes q, a read of table ("name AS alias") by a range of its ids,
// walk the table's ids: SQLite, without statistics, would rather walk an
// index whose leading columns q compares with "=" and sort all of the
// crawl's rows that match for every chunk; PostgreSQL chooses by its
// statistics.
func (d dialect) byID(q *bun.SelectQuery, table string) *bun.SelectQuery {
	if !d.pg {
		q = q.ModelTableExpr(table + " NOT INDEXED")
	}
	return q
}

// lockRows locks the rows q reads until the transaction ends (FOR UPDATE;
// with skip, rows another transaction holds are passed over, so instances
// claiming work at once never take the same row). SQLite has no row locks:
// its transactions start IMMEDIATE, holding the file's write lock, which
// serialises them instead.
func (d dialect) lockRows(q *bun.SelectQuery, skip bool) *bun.SelectQuery {
	switch {
	case !d.pg:
		return q
	case skip:
		return q.For("UPDATE SKIP LOCKED")
	}
	return q.For("UPDATE")
}

// notify announces payload on channel when tx commits, and only if it
// commits (PostgreSQL's pg_notify), for other instances' caches. SQLite
// serves one process: there is nobody to tell.
func (d dialect) notify(ctx context.Context, tx bun.Tx, channel, payload string) error {
	if !d.pg {
		return nil
	}
	_, err := tx.NewRaw("SELECT pg_notify(?, ?)", channel, payload).Exec(ctx)
	return err
}

// snapshot is the options of a read-only transaction whose statements all
// see one state of the database (PostgreSQL needs REPEATABLE READ for
// that; an SQLite read transaction is a snapshot already).
func (d dialect) snapshot() *sql.TxOptions {
	if d.pg {
		return &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	return &sql.TxOptions{ReadOnly: true}
}

// param is the nth (from 1) parameter of a statement whose arguments the
// driver binds ($n on both engines: the SQLite driver binds $n to the nth
// argument); json tells a JSON column's, text cast to jsonb on
// PostgreSQL.
func (d dialect) param(n int, json bool) string {
	p := "$" + strconv.Itoa(n)
	if json && d.pg {
		p += "::text::jsonb"
	}
	return p
}

// shortStatements is the context for the statements of a loop that checks
// ctx between them, each writing one row: ctx on PostgreSQL, where a
// statement waits on the network; on SQLite one without its cancellation,
// which the driver would otherwise watch with a goroutine of its own for
// every statement.
func (d dialect) shortStatements(ctx context.Context) context.Context {
	if d.pg {
		return ctx
	}
	return context.WithoutCancel(ctx)
}

// stampArg is s as an argument the driver binds: a time on PostgreSQL,
// stampLayout text on SQLite (the form AppendQuery writes).
func (d dialect) stampArg(s stamp) any {
	if d.pg {
		return s.utc()
	}
	return s.utc().Format(stampLayout)
}

// unstorable reports whether any of ss is text the engine cannot hold: NUL
// anywhere, and on PostgreSQL invalid UTF-8. No stored value equals or
// contains such text, so a lookup by it matches nothing, as in the memory
// store, instead of failing.
func (d dialect) unstorable(ss ...string) bool {
	for _, s := range ss {
		if strings.IndexByte(s, 0) >= 0 || (d.pg && !utf8.ValidString(s)) {
			return true
		}
	}
	return false
}

// stampLayout is how SQLite stores times: RFC 3339 in UTC with exactly six
// fractional digits, so that text order is time order (sorting, min()) and
// the resolution is a PostgreSQL timestamptz's.
const stampLayout = "2006-01-02T15:04:05.000000Z"

// stamp is a time column: timestamptz on PostgreSQL, stampLayout text on
// SQLite; always in UTC, to the microsecond.
type stamp time.Time

// stampOf is t as it will be stored.
func stampOf(t time.Time) stamp { return stamp(t.UTC().Truncate(time.Microsecond)) }

// utc returns the stored time, in UTC.
func (s stamp) utc() time.Time { return time.Time(s).UTC() }

// AppendQuery implements schema.QueryAppender: bun writes the time in the
// dialect's form.
func (s stamp) AppendQuery(gen schema.QueryGen, b []byte) ([]byte, error) {
	if isPG(gen) {
		return gen.Dialect().AppendTime(b, s.utc()), nil
	}
	return gen.Dialect().AppendString(b, s.utc().Format(stampLayout)), nil
}

// Value implements driver.Valuer, for values handed to the driver directly.
func (s stamp) Value() (driver.Value, error) { return s.utc(), nil }

// Scan implements sql.Scanner: a timestamptz, or stampLayout text.
func (s *stamp) Scan(v any) error {
	if t, ok := v.(time.Time); ok {
		*s = stampOf(t)
		return nil
	}
	text, ok := textOf(v)
	if !ok {
		return fmt.Errorf("sqlstore: a stored time is %T, want a time or text", v)
	}
	t, err := time.Parse(stampLayout, text)
	if err != nil {
		return fmt.Errorf("sqlstore: stored time %q: %w", text, err)
	}
	*s = stamp(t)
	return nil
}

// idList is a list of row ids: an int8[] on PostgreSQL, a JSON array on
// SQLite.
type idList []int64

// AppendQuery implements schema.QueryAppender.
func (l idList) AppendQuery(gen schema.QueryGen, b []byte) ([]byte, error) {
	open, close := byte('['), byte(']')
	if isPG(gen) {
		open, close = '{', '}'
	}
	text := []byte{open}
	for i, id := range l {
		if i > 0 {
			text = append(text, ',')
		}
		text = strconv.AppendInt(text, id, 10)
	}
	return gen.Dialect().AppendString(b, string(append(text, close))), nil
}

// Scan implements sql.Scanner: "{1,2}" or "[1,2]".
func (l *idList) Scan(v any) error {
	text, ok := textOf(v)
	if !ok {
		return fmt.Errorf("sqlstore: a stored id list is %T, want text", v)
	}
	inner := strings.Trim(strings.TrimSpace(text), "{}[]")
	out := idList{}
	for _, f := range strings.Split(inner, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return fmt.Errorf("sqlstore: stored id list %q: %w", text, err)
		}
		out = append(out, id)
	}
	*l = out
	return nil
}

// textOf is a scanned text column's value.
func textOf(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case []byte:
		return string(v), true
	}
	return "", false
}

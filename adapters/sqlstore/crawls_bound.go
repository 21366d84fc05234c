package sqlstore

import (
	"context"
	"database/sql"
	"strings"

	"github.com/uptrace/bun"
)

// The crawler's batches (AddURLs' new URLs, RecordPages' records and
// links) are written by one prepared statement per kind of row, its
// arguments bound by the driver: the statement is parsed once per
// transaction, where a multi-row statement's text is written by bun value
// by value and parsed again by the engine for every batch (on SQLite that
// parsing cost more than the writes themselves). On SQLite a statement
// writes one row (no round trip to pay); on PostgreSQL an insert writes up
// to rowsPerInsert rows, so a batch costs a few round trips, not one per row.

// urlColumns are crawl_urls' columns but id, in urlRow's order; jsonURL
// tells the JSON ones.
var (
	urlColumns = []string{"crawl_id", "url", "depth", "in_sitemap", "source", "attempts", "lease_until", "recorded",
		"final_url", "status_code", "failure", "redirects", "redirect_loop", "title", "description", "canonical", "noindex",
		"fingerprint", "hreflang", "blocked", "indexable", "outlinks", "inlinks", "score", "rating", "response_us", "bytes",
		"fetched_at", "results", "failing", "render", "found_by_js", "lang"}
	jsonURL = map[string]bool{"redirects": true, "hreflang": true, "results": true, "failing": true, "render": true}
)

// urlArgs are r's values of urlColumns.
func (d dialect) urlArgs(r urlRow) []any {
	return []any{r.CrawlID, r.URL, r.Depth, r.InSitemap, r.Source, r.Attempts, d.stampArg(r.LeaseUntil), r.Recorded,
		r.FinalURL, r.StatusCode, r.Failure, r.Redirects, r.RedirectLoop, r.Title, r.Description, r.Canonical, r.Noindex,
		r.Fingerprint, r.Hreflang, r.Blocked, r.Indexable, r.Outlinks, r.Inlinks, r.Score, r.Rating, r.ResponseUS, r.Bytes,
		d.stampArg(r.FetchedAt), r.Results, r.Failing, r.Render, r.FoundByJS, r.Lang}
}

// recordArgs are r's values of recordColumns, then its id.
func (d dialect) recordArgs(r urlRow) []any {
	return []any{r.Recorded, r.FinalURL, r.StatusCode, r.Failure, r.Redirects, r.RedirectLoop, r.Title, r.Description,
		r.Canonical, r.Noindex, r.Fingerprint, r.Hreflang, r.Blocked, r.Indexable, r.Outlinks, r.Score, r.Rating,
		r.ResponseUS, r.Bytes, d.stampArg(r.FetchedAt), r.Results, r.Failing, r.Render, r.Lang, r.ID}
}

// addURLSQL inserts n frontier rows (urlArgs each, one after another) or,
// for a URL that is there, keeps the smaller depth and ORs the sitemap flag.
func (d dialect) addURLSQL(n int) string {
	return "INSERT INTO crawl_urls AS u (" + strings.Join(urlColumns, ", ") + ") VALUES " +
		d.tuples(n, len(urlColumns), func(i int) bool { return jsonURL[urlColumns[i]] }) +
		" ON CONFLICT (crawl_id, url) DO UPDATE SET depth = " + d.least("u.depth", "EXCLUDED.depth") +
		", in_sitemap = u.in_sitemap OR EXCLUDED.in_sitemap"
}

// tuples is n parenthesised lists of cols parameters, numbered on from 1;
// json tells the JSON columns by their place in a list.
func (d dialect) tuples(n, cols int, json func(int) bool) string {
	var b strings.Builder
	for r := range n {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for i := range cols {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(d.param(r*cols+i+1, json(i)))
		}
		b.WriteByte(')')
	}
	return b.String()
}

// rowsPerInsert is how many rows one insert of the crawler's batches
// writes: one on SQLite, up to 200 on PostgreSQL.
func (d dialect) rowsPerInsert() int {
	if d.pg {
		return 200
	}
	return 1
}

// recordSQL writes a URL's record (recordArgs) over its row: an update,
// one row per statement, whatever execEach asks.
func (d dialect) recordSQL(int) string {
	var b strings.Builder
	b.WriteString("UPDATE crawl_urls SET ")
	for i, c := range recordColumns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c + " = " + d.param(i+1, jsonURL[c]))
	}
	b.WriteString(" WHERE id = " + d.param(len(recordColumns)+1, false))
	return b.String()
}

// auditSQL inserts n audits: each its url_id, results (bytes) and
// rendering (JSON, or NULL).
func (d dialect) auditSQL(n int) string {
	return "INSERT INTO crawl_audits (url_id, results, rendering) VALUES " + d.tuples(n, 3, func(i int) bool { return i == 2 })
}

// linkSQL inserts n links: each its crawl, from_id and to_url.
func (d dialect) linkSQL(n int) string {
	return "INSERT INTO crawl_links (crawl_id, from_id, to_url) VALUES " + d.tuples(n, 3, func(int) bool { return false })
}

// execEach writes args, each one row's arguments, with the statements
// query(n) writes n rows with: per rows rows (at most), one statement
// prepared in tx and executed once per group, the last group's its own.
func (s store) execEach(ctx context.Context, tx bun.Tx, op string, query func(n int) string, rows int, args [][]any) error {
	rowCtx := s.dialect.shortStatements(ctx)
	var stmt *sql.Stmt
	defer func() {
		if stmt != nil {
			_ = stmt.Close()
		}
	}()
	prepared := 0 // the rows stmt writes
	for from := 0; from < len(args); from += rows {
		group := args[from:min(from+rows, len(args))]
		if len(group) != prepared {
			if stmt != nil {
				_ = stmt.Close()
			}
			var err error
			if stmt, err = tx.Tx.PrepareContext(ctx, query(len(group))); err != nil {
				stmt = nil
				return s.wrap(op, err)
			}
			prepared = len(group)
		}
		if err := ctx.Err(); err != nil {
			return s.wrap(op, err)
		}
		flat := group[0]
		if len(group) > 1 {
			flat = make([]any, 0, len(group)*len(group[0]))
			for _, a := range group {
				flat = append(flat, a...)
			}
		}
		if _, err := stmt.ExecContext(rowCtx, flat...); err != nil {
			return s.wrap(op, err)
		}
	}
	return nil
}

package sqlstore

import (
	"context"
	"database/sql"
	"strings"

	"github.com/uptrace/bun"
)

// The crawler's batches (AddURLs' new URLs, RecordPages' records and
// links) are written by one prepared statement per kind of row, executed
// once per row with its arguments bound by the driver: the statement is
// parsed once per transaction, where a multi-row statement's text is
// written by bun value by value and parsed again by the engine for every
// batch (on SQLite that parsing cost more than the writes themselves).

// urlColumns are crawl_urls' columns but id, in urlRow's order; jsonURL
// tells the JSON ones.
var (
	urlColumns = []string{"crawl_id", "url", "depth", "in_sitemap", "source", "attempts", "lease_until", "recorded",
		"final_url", "status_code", "failure", "redirects", "redirect_loop", "title", "description", "canonical", "noindex",
		"fingerprint", "hreflang", "blocked", "indexable", "outlinks", "inlinks", "score", "rating", "response_us", "bytes",
		"fetched_at", "results", "failing"}
	jsonURL = map[string]bool{"redirects": true, "hreflang": true, "results": true, "failing": true}
)

// urlArgs are r's values of urlColumns.
func (d dialect) urlArgs(r urlRow) []any {
	return []any{r.CrawlID, r.URL, r.Depth, r.InSitemap, r.Source, r.Attempts, d.stampArg(r.LeaseUntil), r.Recorded,
		r.FinalURL, r.StatusCode, r.Failure, r.Redirects, r.RedirectLoop, r.Title, r.Description, r.Canonical, r.Noindex,
		r.Fingerprint, r.Hreflang, r.Blocked, r.Indexable, r.Outlinks, r.Inlinks, r.Score, r.Rating, r.ResponseUS, r.Bytes,
		d.stampArg(r.FetchedAt), r.Results, r.Failing}
}

// recordArgs are r's values of recordColumns, then its id.
func (d dialect) recordArgs(r urlRow) []any {
	return []any{r.Recorded, r.FinalURL, r.StatusCode, r.Failure, r.Redirects, r.RedirectLoop, r.Title, r.Description,
		r.Canonical, r.Noindex, r.Fingerprint, r.Hreflang, r.Blocked, r.Indexable, r.Outlinks, r.Score, r.Rating,
		r.ResponseUS, r.Bytes, d.stampArg(r.FetchedAt), r.Results, r.Failing, r.ID}
}

// addURLSQL inserts a frontier row (urlArgs) or, when its URL is there,
// keeps the smaller depth and ORs the sitemap flag.
func (d dialect) addURLSQL() string {
	var b strings.Builder
	b.WriteString("INSERT INTO crawl_urls AS u (" + strings.Join(urlColumns, ", ") + ") VALUES (")
	for i, c := range urlColumns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(d.param(i+1, jsonURL[c]))
	}
	b.WriteString(") ON CONFLICT (crawl_id, url) DO UPDATE SET depth = " + d.least("u.depth", "EXCLUDED.depth") +
		", in_sitemap = u.in_sitemap OR EXCLUDED.in_sitemap")
	return b.String()
}

// recordSQL writes a URL's record (recordArgs) over its row.
func (d dialect) recordSQL() string {
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

// linkSQL inserts a link: its crawl, from_id and to_url.
func (d dialect) linkSQL() string {
	return "INSERT INTO crawl_links (crawl_id, from_id, to_url) VALUES (" + d.param(1, false) + ", " + d.param(2, false) + ", " + d.param(3, false) + ")"
}

// execEach prepares query in tx and executes it once with each of args.
func (s store) execEach(ctx context.Context, tx bun.Tx, op, query string, args [][]any) error {
	if len(args) == 0 {
		return nil
	}
	stmt, err := tx.Tx.PrepareContext(ctx, query)
	if err != nil {
		return s.wrap(op, err)
	}
	defer func(stmt *sql.Stmt) { _ = stmt.Close() }(stmt)
	rowCtx := s.dialect.shortStatements(ctx)
	for _, a := range args {
		if err := ctx.Err(); err != nil {
			return s.wrap(op, err)
		}
		if _, err := stmt.ExecContext(rowCtx, a...); err != nil {
			return s.wrap(op, err)
		}
	}
	return nil
}

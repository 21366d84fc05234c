package sqlstore

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
)

// eachChunk is how many rows an Each method reads per statement.
const eachChunk = 500

// issueRow is a site-level issue of a crawl.
type issueRow struct {
	bun.BaseModel `bun:"table:crawl_issues,alias:i"`

	ID           int64  `bun:"id,pk,autoincrement"`
	CrawlID      int64  `bun:"crawl_id"`
	Type         string `bun:"type"`
	Severity     string `bun:"severity"`
	URL          string `bun:"url"`
	Line         int    `bun:"line"`
	LineText     string `bun:"line_text"`
	Detail       string `bun:"detail"`
	Related      string `bun:"related"` // JSON list
	RelatedTotal int    `bun:"related_total"`
}

func (r issueRow) toDomain() (crawl.Issue, error) {
	i := crawl.Issue{Type: crawl.IssueType(r.Type), URL: r.URL, Line: r.Line, LineText: r.LineText, Detail: r.Detail, RelatedTotal: r.RelatedTotal}
	if err := fromJSON(r.Related, &i.Related); err != nil {
		return crawl.Issue{}, err
	}
	if len(i.Related) == 0 {
		i.Related = nil
	}
	return i, nil
}

// SaveIssues implements ports.CrawlStore: the crawl's issues are deleted
// and issues inserted, in order, in one transaction.
func (s *CrawlStore) SaveIssues(ctx context.Context, id int64, issues []crawl.Issue) error {
	rows := make([]issueRow, len(issues))
	for i, is := range issues {
		related, err := jsonText(nonNil(is.Related))
		if err != nil {
			return err
		}
		rows[i] = issueRow{CrawlID: id, Type: string(is.Type), Severity: string(is.Severity()), URL: is.URL, Line: is.Line,
			LineText: is.LineText, Detail: is.Detail, Related: related, RelatedTotal: is.RelatedTotal}
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.inTx(ctx, "save issues", func(ctx context.Context, tx bun.Tx) error {
		if _, _, err := s.lockCrawl(ctx, tx, 0, id); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*issueRow)(nil)).Where("crawl_id = ?", id).Exec(ctx); err != nil {
			return s.wrap("delete issues", err)
		}
		for from := 0; from < len(rows); from += 500 {
			batch := rows[from:min(from+500, len(rows))]
			if _, err := tx.NewInsert().Model(&batch).Exec(ctx); err != nil {
				return s.wrap("save issues", err)
			}
		}
		return nil
	})
}

// owns reports crawl.ErrNotFound unless the user has crawl id.
func (s *CrawlStore) owns(ctx context.Context, db bun.IDB, userID, id int64) error {
	n, err := db.NewSelect().Model((*crawlRow)(nil)).Where("id = ? AND user_id = ?", id, userID).Count(ctx)
	if err != nil {
		return s.wrap("read crawl", err)
	}
	if n == 0 {
		return crawl.ErrNotFound
	}
	return nil
}

// pageSorts are the columns of the page sorts.
var pageSorts = map[ports.PageSort]string{
	ports.SortPagesByDepth:        "depth",
	ports.SortPagesByScore:        "score",
	ports.SortPagesByInlinks:      "inlinks",
	ports.SortPagesByResponseTime: "response_us",
}

// Pages implements ports.CrawlStore: one snapshot reads the pages (an
// index per sort) and the issue types of those listed.
func (s *CrawlStore) Pages(ctx context.Context, userID, id int64, q ports.PageQuery) ([]ports.CrawlPage, int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var out []ports.CrawlPage
	var total int
	err := s.e.Read.RunInTx(ctx, s.dialect.snapshot(), func(ctx context.Context, tx bun.Tx) error {
		if err := s.owns(ctx, tx, userID, id); err != nil {
			return err
		}
		var rows []urlRow
		sel := tx.NewSelect().Model(&rows).ExcludeColumn(pageSkipped...).Where("crawl_id = ? AND recorded = TRUE", id)
		if q.Status != 0 {
			sel.Where("status_code = ?", q.Status)
		}
		if q.Indexable != nil {
			sel.Where("indexable = ?", *q.Indexable)
		}
		if q.Check != "" {
			sel.Where(s.dialect.listHas("failing"), q.Check)
		}
		if q.IssueType != "" {
			sel.Where("EXISTS (SELECT 1 FROM crawl_issues AS i WHERE i.crawl_id = u.crawl_id AND i.url = u.url AND i.type = ?)", string(q.IssueType))
		}
		dir := direction(q.Desc)
		if col, ok := pageSorts[q.SortBy]; ok {
			sel.OrderExpr(col + " " + dir)
		} else if q.SortBy == ports.SortPagesByURL {
			sel.OrderExpr(s.dialect.binary("url") + " " + dir)
		}
		sel.OrderExpr("id " + dir).Limit(int64(q.WithDefaults().PerPage)).Offset(int64(q.Offset()))
		n, err := sel.ScanAndCount(ctx)
		if err != nil {
			return s.wrap("list pages", err)
		}
		total = int(n)
		if out, err = pagesOf(rows, false); err != nil {
			return err
		}
		return s.issueTypes(ctx, tx, id, out)
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// pagesOf turns stored rows into pages.
func pagesOf(rows []urlRow, withResults bool) ([]ports.CrawlPage, error) {
	out := make([]ports.CrawlPage, len(rows))
	for i, r := range rows {
		p, err := r.toPage(withResults)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// issueTypes sets the IssueTypes of pages of crawl id.
func (s *CrawlStore) issueTypes(ctx context.Context, db bun.IDB, id int64, pages []ports.CrawlPage) error {
	if len(pages) == 0 {
		return nil
	}
	urls := make([]string, len(pages))
	for i, p := range pages {
		urls[i] = p.Page.URL
	}
	var found []struct {
		URL  string `bun:"url"`
		Type string `bun:"type"`
	}
	err := db.NewSelect().Model((*issueRow)(nil)).ColumnExpr("DISTINCT url, type").
		Where("crawl_id = ? AND url IN (?)", id, bun.List(urls)).Scan(ctx, &found)
	if err != nil {
		return s.wrap("read issue types", err)
	}
	byURL := map[string][]crawl.IssueType{}
	for _, f := range found {
		byURL[f.URL] = append(byURL[f.URL], crawl.IssueType(f.Type))
	}
	for i := range pages {
		if ts := byURL[pages[i].Page.URL]; ts != nil {
			crawl.SortIssueTypes(ts)
			pages[i].IssueTypes = ts
		}
	}
	return nil
}

// Page implements ports.CrawlStore.
func (s *CrawlStore) Page(ctx context.Context, userID, id, pageID int64) (ports.CrawlPage, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var out ports.CrawlPage
	err := s.e.Read.RunInTx(ctx, s.dialect.snapshot(), func(ctx context.Context, tx bun.Tx) error {
		if err := s.owns(ctx, tx, userID, id); err != nil {
			return err
		}
		var row urlRow
		if err := tx.NewSelect().Model(&row).Where("id = ? AND crawl_id = ? AND recorded = TRUE", pageID, id).Scan(ctx); err != nil {
			return s.missing(err, crawl.ErrNotFound, "read page")
		}
		var audit []auditRow
		if err := tx.NewSelect().Model(&audit).Where("url_id = ?", pageID).Scan(ctx); err != nil {
			return s.wrap("read audit", err)
		}
		if len(audit) > 0 { // else the audit of a page recorded before crawl_audits, if any
			row.Results = audit[0].Results
		}
		p, err := row.toPage(true)
		if err != nil {
			return err
		}
		if len(audit) > 0 && audit[0].Rendering != nil {
			p.Rendering = new(pagecheck.Rendering)
			if err := fromJSON(*audit[0].Rendering, p.Rendering); err != nil {
				return err
			}
		}
		var links []string
		if err := tx.NewSelect().Model((*linkRow)(nil)).Column("to_url").Where("from_id = ?", pageID).OrderExpr("id").Scan(ctx, &links); err != nil {
			return s.wrap("read links", err)
		}
		if len(links) > 0 {
			p.Page.Outlinks = links
		}
		out = p
		pages := []ports.CrawlPage{p}
		if err := s.issueTypes(ctx, tx, id, pages); err != nil {
			return err
		}
		out = pages[0]
		return nil
	})
	return out, err
}

// Issues implements ports.CrawlStore.
func (s *CrawlStore) Issues(ctx context.Context, userID, id int64, q ports.IssueQuery) ([]crawl.Issue, int, error) {
	if s.dialect.unstorable(string(q.Type), string(q.Severity)) {
		return []crawl.Issue{}, 0, nil
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var out []crawl.Issue
	var total int
	err := s.e.Read.RunInTx(ctx, s.dialect.snapshot(), func(ctx context.Context, tx bun.Tx) error {
		if err := s.owns(ctx, tx, userID, id); err != nil {
			return err
		}
		var rows []issueRow
		sel := tx.NewSelect().Model(&rows).Where("crawl_id = ?", id)
		if q.Type != "" {
			sel.Where("type = ?", string(q.Type))
		}
		if q.Severity != "" {
			sel.Where("severity = ?", string(q.Severity))
		}
		n, err := sel.OrderExpr("id").Limit(int64(q.WithDefaults().PerPage)).Offset(int64(q.Offset())).ScanAndCount(ctx)
		if err != nil {
			return s.wrap("list issues", err)
		}
		total = int(n)
		out, err = issuesOf(rows)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// issuesOf turns stored rows into issues.
func issuesOf(rows []issueRow) ([]crawl.Issue, error) {
	out := make([]crawl.Issue, len(rows))
	for i, r := range rows {
		is, err := r.toDomain()
		if err != nil {
			return nil, err
		}
		out[i] = is
	}
	return out, nil
}

// exists reports crawl.ErrNotFound unless crawl id exists.
func (s *CrawlStore) exists(ctx context.Context, id int64) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	n, err := s.e.Read.NewSelect().Model((*crawlRow)(nil)).Where("id = ?", id).Count(ctx)
	if err != nil {
		return s.wrap("read crawl", err)
	}
	if n == 0 {
		return crawl.ErrNotFound
	}
	return nil
}

// hasIssues reports whether crawl id has any issue stored.
func (s *CrawlStore) hasIssues(ctx context.Context, id int64) (bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	ok, err := s.e.Read.NewSelect().Model((*issueRow)(nil)).Where("crawl_id = ?", id).Exists(ctx)
	return ok, s.wrap("read issues", err)
}

// chunk runs read, one statement bounded by the store's timeout.
func (s *CrawlStore) chunk(ctx context.Context, op string, read func(ctx context.Context) error) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.wrap(op, read(ctx))
}

// FailingChecks implements ports.CrawlStore: one statement streams the
// audited pages' failing lists, counted here (countChecks): the engines'
// JSON table functions took several times as long as the reading.
func (s *CrawlStore) FailingChecks(ctx context.Context, id int64) ([]crawl.CheckCount, error) {
	if err := s.exists(ctx, id); err != nil {
		return nil, err
	}
	counts := map[string]*int{}
	err := s.chunk(ctx, "count failing checks", func(ctx context.Context) error {
		rows, err := s.e.Read.QueryContext(ctx, "SELECT failing FROM crawl_urls WHERE crawl_id = ? AND recorded = TRUE AND rating <> ''", id)
		if err != nil {
			return err
		}
		defer func() { _ = rows.Close() }()
		var list sql.RawBytes
		for rows.Next() {
			if err := rows.Scan(&list); err != nil {
				return err
			}
			if err := countChecks(list, counts); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	failing := make(map[string]int, len(counts))
	for check, n := range counts {
		failing[check] = *n
	}
	return crawl.CheckCounts(failing), nil
}

// countChecks adds one to the count of each check id of list, a stored
// JSON list of them (eachCheckID).
func countChecks(list []byte, counts map[string]*int) error {
	return eachCheckID(list, func(check []byte) {
		if n := counts[string(check)]; n != nil {
			*n++
			return
		}
		one := 1
		counts[string(check)] = &one
	})
}

// checkIDs is the check ids of list, a stored JSON list of them; nil for
// an empty list.
func checkIDs(list string) ([]string, error) {
	var out []string
	err := eachCheckID([]byte(list), func(check []byte) { out = append(out, string(check)) })
	return out, err
}

// eachCheckID calls fn with each check id of list, a stored JSON list of
// them: without an escape in it, each pair of quotes holds one id, read
// in place; else it is decoded. fn must not keep its argument.
func eachCheckID(list []byte, fn func(check []byte)) error {
	if bytes.IndexByte(list, '\\') >= 0 {
		var checks []string
		if err := fromJSON(string(list), &checks); err != nil {
			return err
		}
		for _, c := range checks {
			fn([]byte(c))
		}
		return nil
	}
	for rest := list; ; {
		open := bytes.IndexByte(rest, '"')
		if open < 0 {
			return nil
		}
		end := bytes.IndexByte(rest[open+1:], '"')
		if end < 0 {
			return fmt.Errorf("sqlstore: failing checks %q: unterminated string", list)
		}
		fn(rest[open+1 : open+1+end])
		rest = rest[open+1+end+1:]
	}
}

// EachIssue implements ports.CrawlStore.
func (s *CrawlStore) EachIssue(ctx context.Context, id int64, fn func(crawl.Issue) error) error {
	if err := s.exists(ctx, id); err != nil {
		return err
	}
	var after int64
	for {
		var rows []issueRow
		err := s.chunk(ctx, "read issues", func(ctx context.Context) error {
			return s.e.Read.NewSelect().Model(&rows).Where("crawl_id = ? AND id > ?", id, after).OrderExpr("id").Limit(eachChunk).Scan(ctx)
		})
		if err != nil {
			return err
		}
		issues, err := issuesOf(rows)
		if err != nil {
			return err
		}
		for _, is := range issues {
			if err := fn(is); err != nil {
				return err
			}
		}
		if len(rows) < eachChunk {
			return nil
		}
		after = rows[len(rows)-1].ID
	}
}

// EachLink implements ports.CrawlStore: links by linking page, then in
// stored order, a chunk at a time (keyed on both).
func (s *CrawlStore) EachLink(ctx context.Context, id int64, fn func(from, to string) error) error {
	if err := s.exists(ctx, id); err != nil {
		return err
	}
	var afterFrom, afterID int64
	for {
		var rows []struct {
			ID     int64  `bun:"id"`
			FromID int64  `bun:"from_id"`
			From   string `bun:"from_url"`
			To     string `bun:"to_url"`
		}
		err := s.chunk(ctx, "read links", func(ctx context.Context) error {
			return s.e.Read.NewSelect().Model((*linkRow)(nil)).ColumnExpr("l.id, l.from_id, u.url AS from_url, l.to_url").
				Join("JOIN crawl_urls AS u ON u.id = l.from_id").
				Where("l.crawl_id = ? AND (l.from_id > ? OR (l.from_id = ? AND l.id > ?))", id, afterFrom, afterFrom, afterID).
				OrderExpr("l.from_id, l.id").Limit(eachChunk).Scan(ctx, &rows)
		})
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := fn(r.From, r.To); err != nil {
				return err
			}
		}
		if len(rows) < eachChunk {
			return nil
		}
		afterFrom, afterID = rows[len(rows)-1].FromID, rows[len(rows)-1].ID
	}
}

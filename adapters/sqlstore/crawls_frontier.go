package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
)

// storedNoDepth is how crawl.NoDepth is stored, so that ordering by depth
// puts sitemap-only URLs last.
const storedNoDepth = 1 << 30

func depthOf(d int) int {
	if d < 0 {
		return storedNoDepth
	}
	return d
}

func depthFrom(stored int) int {
	if stored >= storedNoDepth {
		return crawl.NoDepth
	}
	return stored
}

// urlRow is a URL of a crawl's frontier and, once recorded, its page.
type urlRow struct {
	bun.BaseModel `bun:"table:crawl_urls,alias:u"`

	ID           int64  `bun:"id,pk,autoincrement"`
	CrawlID      int64  `bun:"crawl_id"`
	URL          string `bun:"url"`
	Depth        int    `bun:"depth"` // depthOf
	InSitemap    bool   `bun:"in_sitemap"`
	Source       string `bun:"source"`
	Attempts     int    `bun:"attempts"`
	LeaseUntil   stamp  `bun:"lease_until"`
	Recorded     bool   `bun:"recorded"`
	FinalURL     string `bun:"final_url"`
	StatusCode   int    `bun:"status_code"`
	Failure      string `bun:"failure"`
	Redirects    string `bun:"redirects"` // JSON list
	RedirectLoop bool   `bun:"redirect_loop"`
	Title        string `bun:"title"`
	Description  string `bun:"description"`
	Canonical    string `bun:"canonical"`
	Noindex      bool   `bun:"noindex"`
	Fingerprint  int64  `bun:"fingerprint"` // the uint64's bits
	Hreflang     string `bun:"hreflang"`    // JSON list
	Blocked      bool   `bun:"blocked"`
	Indexable    bool   `bun:"indexable"`
	Outlinks     int    `bun:"outlinks"`
	Inlinks      int    `bun:"inlinks"`
	Score        int    `bun:"score"`
	Rating       string `bun:"rating"`
	ResponseUS   int64  `bun:"response_us"`
	Bytes        int64  `bun:"bytes"`
	FetchedAt    stamp  `bun:"fetched_at"`
	Results      string `bun:"results"` // JSON: "{}", or the audit of a page recorded before crawl_audits
	Failing      string `bun:"failing"` // JSON list: Results.Failing
	Render       string `bun:"render"`  // JSON of crawl.PageRender ("{}" for none)
	FoundByJS    bool   `bun:"found_by_js"`
	Lang         string `bun:"lang"`
}

// auditColumns are a page's audit: its own read needs them, lists and the
// frontier's reads leave them out. A page's audit is in crawl_audits
// (auditRow); results holds one only for pages recorded before that table.
var auditColumns = []string{"results", "failing"}

// pageSkipped are the columns reads of recorded pages (toPage, without
// Results) leave out: the audit's results and the frontier's own, which a
// page does not hold (its failing list is read: CrawlPage.Failing). A
// crawl's finish reads every page, so each column counts.
var pageSkipped = []string{"results", "crawl_id", "source", "attempts", "lease_until", "recorded"}

// newURLRow is a frontier row of u, not recorded.
func newURLRow(crawlID int64, u ports.FrontierURL) urlRow {
	return urlRow{CrawlID: crawlID, URL: u.URL, Depth: depthOf(u.Depth), InSitemap: u.InSitemap, Source: u.Source,
		LeaseUntil: stampOf(time.Time{}), Redirects: "[]", Hreflang: "[]", Results: "{}", Failing: "[]", FetchedAt: stampOf(time.Time{}),
		Render: "{}", FoundByJS: u.FoundByJS}
}

func (r urlRow) frontier() ports.FrontierURL {
	return ports.FrontierURL{URL: r.URL, Depth: depthFrom(r.Depth), InSitemap: r.InSitemap, Source: r.Source, Attempt: r.Attempts, FoundByJS: r.FoundByJS}
}

// toPage is the recorded page of r, with Results when they were read.
func (r urlRow) toPage(withResults bool) (ports.CrawlPage, error) {
	p := ports.CrawlPage{ID: r.ID, Indexable: r.Indexable, Outlinks: r.Outlinks, Inlinks: r.Inlinks, FetchedPage: ports.FetchedPage{
		Page: crawl.Page{URL: r.URL, FinalURL: r.FinalURL, Status: r.StatusCode, Failure: r.Failure, Depth: depthFrom(r.Depth),
			RedirectLoop: r.RedirectLoop, Title: r.Title, Description: r.Description, Canonical: r.Canonical, Noindex: r.Noindex,
			Fingerprint: uint64(r.Fingerprint), InSitemap: r.InSitemap, BlockedByRobots: r.Blocked, FoundByJS: r.FoundByJS, Lang: r.Lang},
		Score: r.Score, Rating: pagecheck.Rating(r.Rating), ResponseTime: time.Duration(r.ResponseUS) * time.Microsecond,
		Bytes: r.Bytes, FetchedAt: r.FetchedAt.utc()}}
	var err error
	if p.Page.Redirects, err = urlList(r.Redirects); err != nil {
		return ports.CrawlPage{}, err
	}
	if p.Page.Hreflang, err = urlList(r.Hreflang); err != nil {
		return ports.CrawlPage{}, err
	}
	if r.Render != "" && r.Render != "{}" {
		if err := fromJSON(r.Render, &p.Page.Render); err != nil {
			return ports.CrawlPage{}, err
		}
	}
	if r.Failing != "" && r.Failing != "[]" {
		if p.Failing, err = checkIDs(r.Failing); err != nil {
			return ports.CrawlPage{}, err
		}
	}
	if withResults {
		if err := decodeResults(r.Results, &p.Results); err != nil {
			return ports.CrawlPage{}, err
		}
	}
	return p, nil
}

// urlList decodes a stored JSON list of URLs: nil when empty, as most
// are (without the JSON decoder: a crawl's finish reads every page).
func urlList(text string) ([]string, error) {
	if text == "[]" {
		return nil, nil
	}
	var out []string
	if err := fromJSON(text, &out); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// auditRow is a recorded page's audit (encodeResults), apart from its
// frontier row: that row stays small to write, read and rewrite.
type auditRow struct {
	bun.BaseModel `bun:"table:crawl_audits,alias:a"`

	URLID   int64  `bun:"url_id,pk"`
	Results string `bun:"results"`
	// Rendering is the JSON of the page's pagecheck.Rendering; NULL when
	// it was not rendered.
	Rendering *string `bun:"rendering"`
}

// linkRow is a link from a recorded page (its frontier row) to a URL.
type linkRow struct {
	bun.BaseModel `bun:"table:crawl_links,alias:l"`

	ID      int64  `bun:"id,pk,autoincrement"`
	CrawlID int64  `bun:"crawl_id"`
	FromID  int64  `bun:"from_id"`
	ToURL   string `bun:"to_url"`
}

// addChunk is how many URLs one read of AddURLs and RecordPages asks for.
const addChunk = 500

// AddURLs implements ports.CrawlStore in one transaction (addURLs);
// Discovered grows by the URLs that were not there and were queued,
// NotQueued by those the frontier's cap refused.
func (s *CrawlStore) AddURLs(ctx context.Context, id int64, urls []ports.FrontierURL) (int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	merged := s.mergeURLs(urls)
	added := 0
	err := s.inTx(ctx, "add urls", func(ctx context.Context, tx bun.Tx) error {
		room, err := s.lockFrontier(ctx, tx, id)
		if err != nil {
			return err
		}
		var refused int
		if added, refused, err = s.addURLs(ctx, tx, id, merged, room); err != nil || added+refused == 0 {
			return err
		}
		_, err = tx.NewUpdate().Model((*crawlRow)(nil)).Set("discovered = discovered + ?", added).
			Set("not_queued = not_queued + ?", refused).Where("id = ?", id).Exec(ctx)
		return s.wrap("count discovered", err)
	})
	return added, err
}

// MarkSeeded implements ports.CrawlStore: one update of the crawl's row.
func (s *CrawlStore) MarkSeeded(ctx context.Context, id int64) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	res, err := s.e.Write.NewUpdate().Model((*crawlRow)(nil)).Set("seeded = TRUE").Where("id = ?", id).Exec(ctx)
	if err != nil {
		return s.wrap("mark seeded", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return crawl.ErrNotFound
	}
	return nil
}

// mergeURLs is urls without the unstorable ones, each URL once: its
// smallest depth, its sitemap flag ORed.
func (s *CrawlStore) mergeURLs(urls []ports.FrontierURL) []ports.FrontierURL {
	merged := make([]ports.FrontierURL, 0, len(urls))
	at := make(map[string]int, len(urls))
	for _, u := range urls {
		if s.dialect.unstorable(u.URL, u.Source) {
			continue
		}
		if i, ok := at[u.URL]; ok {
			merged[i].Depth = crawl.MinDepth(merged[i].Depth, u.Depth)
			merged[i].InSitemap = merged[i].InSitemap || u.InSitemap
			continue
		}
		at[u.URL] = len(merged)
		merged = append(merged, u)
	}
	return merged
}

// lockFrontier is lockCrawl for the crawler's batches, which need the
// lock and, of the row, only the room left in the frontier:
// Settings.FrontierCap less the URLs discovered.
func (s *CrawlStore) lockFrontier(ctx context.Context, tx bun.Tx, id int64) (room int, err error) {
	var row crawlRow
	sel := tx.NewSelect().Model(&row).Column("id", "discovered", "settings").Where("id = ?", id)
	if err := s.dialect.lockRows(sel, false).Scan(ctx); err != nil {
		return 0, s.missing(err, crawl.ErrNotFound, "read crawl")
	}
	var settings crawl.Settings
	if err := fromJSON(row.Settings, &settings); err != nil {
		return 0, err
	}
	return settings.FrontierCap() - row.Discovered, nil
}

// addURLs adds merged (mergeURLs) to crawl id's frontier in tx, whose
// caller holds the crawl's row and counts Discovered: per chunk one read
// of the URLs already there; then an upsert (one prepared statement,
// crawls_bound.go) of only the URLs that are new or whose depth or sitemap
// flag changes, that keeps the smaller depth and ORs the sitemap flag.
// At most room new URLs are added, the shallowest first (merged is
// sorted by depth, stably, when more may come). It returns how many URLs
// were new and added, and how many new ones were refused.
func (s *CrawlStore) addURLs(ctx context.Context, tx bun.Tx, id int64, merged []ports.FrontierURL, room int) (added, refused int, err error) {
	if len(merged) > room {
		slices.SortStableFunc(merged, func(a, b ports.FrontierURL) int { return crawl.CompareDepth(a.Depth, b.Depth) })
	}
	var rows [][]any // the new URLs' and those whose depth or sitemap flag changes
	for from := 0; from < len(merged); from += addChunk {
		chunk := merged[from:min(from+addChunk, len(merged))]
		keys := make([]string, len(chunk))
		for i, u := range chunk {
			keys[i] = u.URL
		}
		var there []urlRow
		err := tx.NewSelect().Model(&there).Column("url", "depth", "in_sitemap").Where("crawl_id = ? AND url IN (?)", id, bun.List(keys)).Scan(ctx)
		if err != nil {
			return 0, 0, s.wrap("read urls", err)
		}
		known := make(map[string]urlRow, len(there))
		for _, r := range there {
			known[r.URL] = r
		}
		for _, u := range chunk {
			k, ok := known[u.URL]
			switch {
			case !ok && added >= room:
				refused++
				continue
			case !ok:
				added++
			}
			if !ok || depthOf(u.Depth) < k.Depth || (u.InSitemap && !k.InSitemap) {
				rows = append(rows, s.dialect.urlArgs(newURLRow(id, u)))
			}
		}
	}
	return added, refused, s.execEach(ctx, tx, "add urls", s.dialect.addURLSQL, s.dialect.rowsPerInsert(), rows)
}

// ClaimURLs implements ports.CrawlStore in one transaction: the crawl's
// row is locked (claims of one crawl are serialised, so the MaxPages cap
// holds), the leased URLs counted only when the cap may bind, the
// shallowest unrecorded depth read, then the free URLs down to one level
// below it read (skipping rows another transaction holds) and leased.
// Every read walks the (crawl_id, recorded, depth, id) index.
func (s *CrawlStore) ClaimURLs(ctx context.Context, id int64, n int, now, until time.Time) ([]ports.FrontierURL, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var out []ports.FrontierURL
	err := s.inTx(ctx, "claim urls", func(ctx context.Context, tx bun.Tx) error {
		out = nil
		_, c, err := s.lockCrawl(ctx, tx, 0, id)
		if err != nil {
			return err
		}
		room, unrecorded := c.Settings.MaxPages-c.Progress.Crawled, c.Progress.Discovered-c.Progress.Crawled-c.Progress.Blocked
		if room-unrecorded < n { // even with every unrecorded URL leased the cap may bind
			leased, err := tx.NewSelect().Model((*urlRow)(nil)).
				Where("crawl_id = ? AND recorded = FALSE AND lease_until > ?", id, stampOf(now)).Count(ctx)
			if err != nil {
				return s.wrap("count leased urls", err)
			}
			n = min(n, room-int(leased))
		}
		if n <= 0 {
			return nil
		}
		var top sql.NullInt64
		err = tx.NewSelect().Model((*urlRow)(nil)).ColumnExpr("min(depth)").Where("crawl_id = ? AND recorded = FALSE", id).Scan(ctx, &top)
		if err != nil {
			return s.wrap("read the shallowest depth", err)
		}
		if !top.Valid {
			return nil
		}
		var rows []urlRow
		sel := tx.NewSelect().Model(&rows).ExcludeColumn(auditColumns...).
			Where("crawl_id = ? AND recorded = FALSE AND lease_until <= ?", id, stampOf(now)).OrderExpr("depth, id").Limit(int64(n))
		if top.Int64 < storedNoDepth { // deeper URLs wait for the links to be walked
			sel = sel.Where("depth <= ?", top.Int64+1)
		}
		if err := s.dialect.lockRows(sel, true).Scan(ctx); err != nil {
			return s.wrap("read free urls", err)
		}
		if len(rows) == 0 {
			return nil
		}
		ids := make([]int64, len(rows))
		for i, r := range rows {
			ids[i] = r.ID
		}
		_, err = tx.NewUpdate().Model((*urlRow)(nil)).Set("lease_until = ?", stampOf(until)).Set("attempts = attempts + 1").
			Where("id IN (?)", bun.List(ids)).Exec(ctx)
		if err != nil {
			return s.wrap("lease urls", err)
		}
		for _, r := range rows {
			r.Attempts++
			out = append(out, r.frontier())
		}
		return nil
	})
	return out, err
}

// recordColumns are the columns of a URL's record, which RecordPages
// writes.
var recordColumns = []string{"recorded", "final_url", "status_code", "failure", "redirects", "redirect_loop", "title", "description",
	"canonical", "noindex", "fingerprint", "hreflang", "blocked", "indexable", "outlinks", "score", "rating",
	"response_us", "bytes", "fetched_at", "results", "failing", "render", "lang"}

// RecordPages implements ports.CrawlStore in one transaction: found
// added as AddURLs adds them (addURLs, in the room the frontier's cap
// leaves); a page recorded twice in the call
// counts as its last record; per chunk, one read
// of the pages' rows (the missing ones inserted) and one delete each of the
// links and audits of those recorded before; then the records written over
// their rows, the audits and the links inserted (a prepared statement
// each, crawls_bound.go), and the crawl's counters moved by the difference.
func (s *CrawlStore) RecordPages(ctx context.Context, id int64, found []ports.FrontierURL, pages []ports.FetchedPage) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	last := make(map[string]int, len(pages))
	for i, p := range pages {
		if !s.dialect.unstorable(p.Page.URL) {
			last[p.Page.URL] = i
		}
	}
	kept := make([]ports.FetchedPage, 0, len(last))
	for i, p := range pages {
		if j, ok := last[p.Page.URL]; ok && j == i {
			kept = append(kept, p)
		}
	}
	results, err := encodeAllResults(kept)
	if err != nil {
		return err
	}
	found = s.mergeURLs(found)
	return s.inTx(ctx, "record pages", func(ctx context.Context, tx bun.Tx) error {
		room, err := s.lockFrontier(ctx, tx, id)
		if err != nil {
			return err
		}
		var delta crawl.Progress
		delta.Discovered, delta.NotQueued, err = s.addURLs(ctx, tx, id, found, room)
		if err != nil {
			return err
		}
		var records, audits, links [][]any
		for from := 0; from < len(kept); from += addChunk {
			chunk := kept[from:min(from+addChunk, len(kept))]
			keys := make([]string, len(chunk))
			for i, p := range chunk {
				keys[i] = p.Page.URL
			}
			// Only what the record keeps of a row or counts from it: the
			// record (recordArgs) writes every other column.
			var there []urlRow
			err := tx.NewSelect().Model(&there).Column("id", "url", "recorded", "blocked", "redirect_loop", "status_code").
				Where("crawl_id = ? AND url IN (?)", id, bun.List(keys)).Scan(ctx)
			if err != nil {
				return s.wrap("read urls", err)
			}
			rows := make(map[string]urlRow, len(there))
			for _, r := range there {
				rows[r.URL] = r
			}
			var again []int64
			for i, p := range chunk {
				cur, ok := rows[p.Page.URL]
				switch {
				case ok && cur.Recorded:
					delta.Count(crawl.Page{BlockedByRobots: cur.Blocked, RedirectLoop: cur.RedirectLoop, Status: cur.StatusCode}, -1)
					again = append(again, cur.ID)
				case !ok:
					cur = newURLRow(id, ports.FrontierURL{URL: p.Page.URL, Depth: p.Page.Depth, InSitemap: p.Page.InSitemap})
					if _, err := tx.NewInsert().Model(&cur).Returning("id").Exec(ctx); err != nil {
						return s.wrap("add url", err)
					}
					delta.Discovered++
				}
				rec, err := recordRow(cur, p)
				if err != nil {
					return err
				}
				records = append(records, s.dialect.recordArgs(rec))
				if p.Results != nil {
					rendering, err := renderingJSON(p.Rendering)
					if err != nil {
						return err
					}
					audits = append(audits, []any{cur.ID, results[from+i], rendering})
				}
				for _, to := range p.Page.Links() {
					if !s.dialect.unstorable(to) {
						links = append(links, []any{id, cur.ID, to})
					}
				}
				delta.Count(p.Page, 1)
				delta.LinksNotRead += p.LinksNotRead
			}
			if len(again) > 0 {
				if _, err := tx.NewDelete().Model((*linkRow)(nil)).Where("from_id IN (?)", bun.List(again)).Exec(ctx); err != nil {
					return s.wrap("replace links", err)
				}
				if _, err := tx.NewDelete().Model((*auditRow)(nil)).Where("url_id IN (?)", bun.List(again)).Exec(ctx); err != nil {
					return s.wrap("replace audits", err)
				}
			}
		}
		// Every row is there: each record is written over its row.
		if err := s.execEach(ctx, tx, "record pages", s.dialect.recordSQL, 1, records); err != nil {
			return err
		}
		if err := s.execEach(ctx, tx, "add audits", s.dialect.auditSQL, s.dialect.rowsPerInsert(), audits); err != nil {
			return err
		}
		if err := s.execEach(ctx, tx, "add links", s.dialect.linkSQL, s.dialect.rowsPerInsert(), links); err != nil {
			return err
		}
		up := tx.NewUpdate().Model((*crawlRow)(nil)).
			Set("discovered = discovered + ?", delta.Discovered).Set("crawled = crawled + ?", delta.Crawled).
			Set("failed = failed + ?", delta.Failed).Set("blocked = blocked + ?", delta.Blocked)
		if delta.NotQueued != 0 || delta.LinksNotRead != 0 { // rare: most batches keep all they found
			up.Set("not_queued = not_queued + ?", delta.NotQueued).Set("links_not_read = links_not_read + ?", delta.LinksNotRead)
		}
		_, err = up.Where("id = ?", id).Exec(ctx)
		return s.wrap("count pages", err)
	})
}

// RecordOf implements ports.CrawlStore: one read of the URL's row.
func (s *CrawlStore) RecordOf(ctx context.Context, id int64, url string) (crawl.Page, bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if s.dialect.unstorable(url) {
		return crawl.Page{}, false, nil
	}
	var row urlRow
	err := s.e.Read.NewSelect().Model(&row).ExcludeColumn(auditColumns...).Where("crawl_id = ? AND url = ?", id, url).Scan(ctx)
	switch {
	case isNoRows(err):
		return crawl.Page{}, false, s.exists(ctx, id)
	case err != nil:
		return crawl.Page{}, false, s.wrap("read url", err)
	case !row.Recorded:
		return crawl.Page{}, false, nil
	}
	p, err := row.toPage(false)
	return p.Page, err == nil, err
}

// recordRow is cur with p's record; its audit goes to crawl_audits
// (cur.Results is emptied: it held the audit of a record made before that
// table).
func recordRow(cur urlRow, p ports.FetchedPage) (urlRow, error) {
	redirects, err := jsonText(nonNil(p.Page.Redirects))
	if err != nil {
		return urlRow{}, err
	}
	hreflang, err := jsonText(nonNil(p.Page.Hreflang))
	if err != nil {
		return urlRow{}, err
	}
	failing := "[]"
	if p.Results != nil {
		if failing, err = jsonText(nonNil(p.Results.Failing())); err != nil {
			return urlRow{}, err
		}
	}
	cur.Recorded, cur.FinalURL, cur.StatusCode, cur.Failure, cur.Redirects = true, p.Page.FinalURL, p.Page.Status, p.Page.Failure, redirects
	cur.RedirectLoop, cur.Title, cur.Description, cur.Canonical = p.Page.RedirectLoop, p.Page.Title, p.Page.Description, p.Page.Canonical
	cur.Noindex, cur.Fingerprint, cur.Hreflang, cur.Blocked = p.Page.Noindex, int64(p.Page.Fingerprint), hreflang, p.Page.BlockedByRobots
	cur.Indexable, cur.Outlinks, cur.Score, cur.Rating = p.Page.Indexable(), len(p.Page.Links()), p.Score, string(p.Rating)
	cur.ResponseUS, cur.Bytes, cur.FetchedAt, cur.Results = p.ResponseTime.Microseconds(), p.Bytes, stampOf(p.FetchedAt), "{}"
	cur.Failing, cur.Render, cur.Lang = failing, "{}", p.Page.Lang
	if p.Page.Render.Rendered || p.Page.Render.Reason != "" {
		if cur.Render, err = jsonText(p.Page.Render); err != nil {
			return urlRow{}, err
		}
	}
	return cur, nil
}

// renderingJSON is the JSON of a page's rendering for crawl_audits, nil
// (NULL) for none.
func renderingJSON(r *pagecheck.Rendering) (*string, error) {
	if r == nil {
		return nil, nil
	}
	s, err := jsonText(r)
	if err != nil {
		return nil, err
	}
	return &s, nil
}

// nonNil is ss, or an empty list for nil.
func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

// isNoRows reports whether err says a query found no row.
func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

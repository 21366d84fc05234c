package sqlstore

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

type crawlRow struct {
	bun.BaseModel `bun:"table:crawls,alias:c"`

	ID               int64  `bun:"id,pk,autoincrement"`
	UserID           int64  `bun:"user_id"`
	Token            string `bun:"token"`
	Site             string `bun:"site"`
	SiteKey          string `bun:"site_key"` // report.URLKey(Site): what search matches
	Politeness       string `bun:"politeness"`
	Settings         string `bun:"settings"` // JSON of crawl.Settings without headers and password
	Headers          string `bun:"headers"`  // JSON; "null" once final
	PasswordHash     string `bun:"password_hash"`
	Status           string `bun:"status"`
	Failure          string `bun:"failure"`
	CancelRequested  bool   `bun:"cancel_requested"`
	Seeded           bool   `bun:"seeded"`
	Discovered       int    `bun:"discovered"`
	Crawled          int    `bun:"crawled"`
	Failed           int    `bun:"failed"`
	Blocked          int    `bun:"blocked"`
	NotQueued        int    `bun:"not_queued"`
	LinksNotRead     int    `bun:"links_not_read"`
	Score            int    `bun:"score"`
	Rating           string `bun:"rating"`
	Summary          string `bun:"summary"` // JSON of crawl.Summary
	CreatedAt        stamp  `bun:"created_at"`
	StartedAt        stamp  `bun:"started_at"`
	FinishedAt       stamp  `bun:"finished_at"`
	NextRunAt        stamp  `bun:"next_run_at"`
	ScheduledFrom    int64  `bun:"scheduled_from"`
	QuotaUntil       stamp  `bun:"quota_until"`
	RenderQuotaUntil stamp  `bun:"render_quota_until"`
	WaitingSince     stamp  `bun:"waiting_since"`
}

// jsonText is v as JSON text, for the JSON columns (jsonb on PostgreSQL
// takes the text as it is).
func jsonText(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("sqlstore: encode %T: %w", v, err)
	}
	return string(b), nil
}

// fromJSON decodes a stored JSON column into v.
func fromJSON(text string, v any) error {
	if err := json.Unmarshal([]byte(text), v); err != nil {
		return fmt.Errorf("sqlstore: stored %T does not decode: %w", v, err)
	}
	return nil
}

func crawlRowOf(c crawl.Crawl) (crawlRow, error) {
	settings := c.Settings
	headers := settings.Headers
	settings.Headers, settings.Password = nil, ""
	if c.Status.Final() {
		headers = nil
	}
	st, err := jsonText(settings)
	if err != nil {
		return crawlRow{}, err
	}
	hd, err := jsonText(headers)
	if err != nil {
		return crawlRow{}, err
	}
	sum, err := jsonText(c.Summary)
	if err != nil {
		return crawlRow{}, err
	}
	return crawlRow{ID: c.ID, UserID: c.UserID, Token: c.Token, Site: c.Site, SiteKey: report.URLKey(c.Site), Politeness: c.Politeness, Settings: st, Headers: hd,
		PasswordHash: c.PasswordHash, Status: string(c.Status), Failure: c.Failure, CancelRequested: c.CancelRequested, Seeded: c.Seeded,
		Discovered: c.Progress.Discovered, Crawled: c.Progress.Crawled, Failed: c.Progress.Failed, Blocked: c.Progress.Blocked,
		NotQueued: c.Progress.NotQueued, LinksNotRead: c.Progress.LinksNotRead,
		Score: c.Score, Rating: string(c.Rating), Summary: sum,
		CreatedAt: stampOf(c.CreatedAt), StartedAt: stampOf(c.StartedAt), FinishedAt: stampOf(c.FinishedAt),
		NextRunAt: stampOf(c.NextRunAt), ScheduledFrom: c.ScheduledFrom, QuotaUntil: stampOf(c.QuotaUntil), WaitingSince: stampOf(c.WaitingSince),
		RenderQuotaUntil: stampOf(c.RenderQuotaUntil)}, nil
}

func (r crawlRow) toDomain() (crawl.Crawl, error) {
	c := crawl.Crawl{ID: r.ID, UserID: r.UserID, Token: r.Token, Site: r.Site, Politeness: r.Politeness, PasswordHash: r.PasswordHash,
		Status: crawl.Status(r.Status), Failure: r.Failure, CancelRequested: r.CancelRequested, Seeded: r.Seeded,
		Progress: crawl.Progress{Discovered: r.Discovered, Crawled: r.Crawled, Failed: r.Failed, Blocked: r.Blocked,
			NotQueued: r.NotQueued, LinksNotRead: r.LinksNotRead},
		Score: r.Score, Rating: pagecheck.Rating(r.Rating),
		CreatedAt: r.CreatedAt.utc(), StartedAt: r.StartedAt.utc(), FinishedAt: r.FinishedAt.utc(),
		NextRunAt: r.NextRunAt.utc(), ScheduledFrom: r.ScheduledFrom, QuotaUntil: r.QuotaUntil.utc(), WaitingSince: r.WaitingSince.utc(),
		RenderQuotaUntil: r.RenderQuotaUntil.utc()}
	if err := fromJSON(r.Settings, &c.Settings); err != nil {
		return crawl.Crawl{}, err
	}
	if err := fromJSON(r.Headers, &c.Settings.Headers); err != nil {
		return crawl.Crawl{}, err
	}
	if err := fromJSON(r.Summary, &c.Summary); err != nil {
		return crawl.Crawl{}, err
	}
	return c, nil
}

// CrawlStore keeps crawls, their sites' holds, frontiers, pages, links and
// issues. Its Idempotency-Key records are the report store's table.
type CrawlStore struct{ store }

// NewCrawlStore returns the crawl store on e.
func NewCrawlStore(e Engine) *CrawlStore { return &CrawlStore{newStore(e)} }

// CreateCrawl implements ports.CrawlStore: one transaction locks the
// user's row (PostgreSQL; SQLite's writer serialises its transactions),
// counts the user's active crawls, inserts and finishes the key.
func (s *CrawlStore) CreateCrawl(ctx context.Context, c crawl.Crawl, limit int, idem *report.Idempotency) (crawl.Crawl, error) {
	return s.createCrawl(ctx, c, limit, idem, nil)
}

// createCrawl is CreateCrawl, calling also, when not nil, with the new
// row's id within its transaction (JobStore enqueues the crawl's run).
func (s *CrawlStore) createCrawl(ctx context.Context, c crawl.Crawl, limit int, idem *report.Idempotency,
	also func(ctx context.Context, tx bun.Tx, id int64) error) (crawl.Crawl, error) {
	c.ID, c.Token, c.Status, c.Failure, c.CancelRequested, c.Seeded = 0, report.NewShareToken(), crawl.StatusQueued, "", false, false
	c.Progress, c.Score, c.Rating, c.Summary = crawl.Progress{}, 0, "", crawl.Summary{}
	c.StartedAt, c.FinishedAt = time.Time{}, time.Time{}
	c.NextRunAt = crawl.NextRun(c.Settings.Schedule, c.CreatedAt)
	c.WaitingSince, c.Politeness = c.CreatedAt, cmp.Or(c.Politeness, c.Settings.Politeness(""))
	row, err := crawlRowOf(c)
	if err != nil {
		return crawl.Crawl{}, err
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	err = s.inTx(ctx, "create crawl", func(ctx context.Context, tx bun.Tx) error {
		if err := s.lockUser(ctx, tx, c.UserID); err != nil {
			return err
		}
		if c.ScheduledFrom != 0 {
			if err := s.startRun(ctx, tx, c); err != nil {
				return err
			}
		}
		if limit > 0 {
			n, err := tx.NewSelect().Model((*crawlRow)(nil)).
				Where("user_id = ? AND status IN (?, ?)", c.UserID, string(crawl.StatusQueued), string(crawl.StatusRunning)).Count(ctx)
			if err != nil {
				return s.wrap("count active crawls", err)
			}
			if n >= int64(limit) {
				return crawl.ErrActiveLimit
			}
		}
		// A new crawl is not seeded and has kept every URL and link found:
		// the columns' defaults (which also lets a schema from before those
		// columns create crawls, as migration tests do).
		if _, err := tx.NewInsert().Model(&row).ExcludeColumn("seeded", "not_queued", "links_not_read").Returning("id").Exec(ctx); err != nil {
			return s.wrap("create crawl", err)
		}
		if also != nil {
			if err := also(ctx, tx, row.ID); err != nil {
				return err
			}
		}
		if idem == nil {
			return nil
		}
		return s.finishIdempotency(ctx, tx, *idem, []int64{row.ID})
	})
	if err != nil {
		return crawl.Crawl{}, err
	}
	return row.toDomain()
}

// Crawl implements ports.CrawlStore.
func (s *CrawlStore) Crawl(ctx context.Context, userID, id int64) (crawl.Crawl, error) {
	return s.oneCrawl(ctx, "id = ? AND user_id = ?", id, userID)
}

// CrawlByID implements ports.CrawlStore.
func (s *CrawlStore) CrawlByID(ctx context.Context, id int64) (crawl.Crawl, error) {
	return s.oneCrawl(ctx, "id = ?", id)
}

// CrawlByToken implements ports.CrawlStore.
func (s *CrawlStore) CrawlByToken(ctx context.Context, token string) (crawl.Crawl, error) {
	return s.oneCrawl(ctx, "token = ?", token)
}

// oneCrawl reads the crawl matching where, or crawl.ErrNotFound.
func (s *CrawlStore) oneCrawl(ctx context.Context, where string, args ...any) (crawl.Crawl, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var row crawlRow
	if err := s.e.Read.NewSelect().Model(&row).Where(where, args...).Scan(ctx); err != nil {
		return crawl.Crawl{}, s.missing(err, crawl.ErrNotFound, "read crawl")
	}
	return row.toDomain()
}

// crawlsOf turns stored rows into crawls.
func crawlsOf(rows []crawlRow) ([]crawl.Crawl, error) {
	out := make([]crawl.Crawl, len(rows))
	for i, row := range rows {
		c, err := row.toDomain()
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// Crawls implements ports.CrawlStore.
func (s *CrawlStore) Crawls(ctx context.Context, userID int64, q crawl.ListQuery) ([]crawl.Crawl, int, error) {
	if s.dialect.unstorable(q.Search, string(q.Status)) {
		return []crawl.Crawl{}, 0, nil
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var rows []crawlRow
	sel := s.e.Read.NewSelect().Model(&rows).Where("user_id = ?", userID)
	if q.Status != "" {
		sel.Where("status = ?", string(q.Status))
	}
	if q.Search != "" {
		sel.Where(s.dialect.contains("site_key"), q.Search)
	}
	dir := direction(q.Desc)
	switch q.SortBy {
	case crawl.SortByCreatedAt:
		sel.OrderExpr("created_at " + dir)
	case crawl.SortByPages:
		sel.OrderExpr("crawled " + dir)
	case crawl.SortByScore:
		sel.OrderExpr("score " + dir)
	}
	sel.OrderExpr("id " + dir).Limit(int64(q.WithDefaults().PerPage)).Offset(int64(q.Offset()))
	total, err := sel.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, s.wrap("list crawls", err)
	}
	out, err := crawlsOf(rows)
	return out, int(total), err
}

// PreviousCrawl implements ports.CrawlStore.
func (s *CrawlStore) PreviousCrawl(ctx context.Context, userID, id int64) (crawl.Crawl, error) {
	c, err := s.Crawl(ctx, userID, id)
	if err != nil {
		return crawl.Crawl{}, err
	}
	// The start URL is in the settings' JSON: the finished crawls of the
	// site (which every comparable crawl shares) are read newest first,
	// a page at a time, until one is comparable.
	ctx, cancel := s.bound(ctx)
	defer cancel()
	before := id
	for {
		var rows []crawlRow
		err := s.e.Read.NewSelect().Model(&rows).Where("user_id = ? AND site = ? AND status = ? AND id < ?",
			userID, c.Site, string(crawl.StatusFinished), before).Order("id DESC").Limit(previousPage).Scan(ctx)
		if err != nil {
			return crawl.Crawl{}, s.wrap("read previous crawl", err)
		}
		for _, row := range rows {
			o, err := row.toDomain()
			if err != nil {
				return crawl.Crawl{}, err
			}
			if c.Comparable(o) {
				return o, nil
			}
			before = o.ID
		}
		if len(rows) < previousPage {
			return crawl.Crawl{}, crawl.ErrNotFound
		}
	}
}

// previousPage is how many earlier crawls PreviousCrawl reads at a time.
const previousPage = 50

// lockCrawl reads crawl id (the user's when userID is not 0) in tx,
// locking its row where rows lock.
func (s *CrawlStore) lockCrawl(ctx context.Context, tx bun.Tx, userID, id int64) (crawlRow, crawl.Crawl, error) {
	var row crawlRow
	sel := tx.NewSelect().Model(&row).Where("id = ?", id)
	if userID != 0 {
		sel.Where("user_id = ?", userID)
	}
	if err := s.dialect.lockRows(sel, false).Scan(ctx); err != nil {
		return crawlRow{}, crawl.Crawl{}, s.missing(err, crawl.ErrNotFound, "read crawl")
	}
	c, err := row.toDomain()
	return row, c, err
}

// updateCrawl writes c over its row in tx and returns it as stored.
func (s *CrawlStore) updateCrawl(ctx context.Context, tx bun.Tx, c crawl.Crawl) (crawl.Crawl, error) {
	row, err := crawlRowOf(c)
	if err != nil {
		return crawl.Crawl{}, err
	}
	_, err = tx.NewUpdate().Model(&row).
		Column("headers", "status", "failure", "cancel_requested", "score", "rating", "summary", "started_at", "finished_at", "waiting_since").
		WherePK().Exec(ctx)
	if err != nil {
		return crawl.Crawl{}, s.wrap("update crawl", err)
	}
	return row.toDomain()
}

// CancelCrawl implements ports.CrawlStore; a crawl it ends (queued, or
// running with no unexpired hold of its site) queues its crawl.finished
// deliveries in the same transaction.
func (s *CrawlStore) CancelCrawl(ctx context.Context, userID, id int64, at time.Time) (crawl.Crawl, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var out crawl.Crawl
	err := s.inTx(ctx, "cancel crawl", func(ctx context.Context, tx bun.Tx) error {
		_, c, err := s.lockCrawl(ctx, tx, userID, id)
		if err != nil {
			return err
		}
		switch c.Status {
		case crawl.StatusQueued:
			c.Status, c.FinishedAt, c.Settings.Headers = crawl.StatusCancelled, at, nil
			if err := s.releaseSite(ctx, tx, id); err != nil {
				return err
			}
		case crawl.StatusRunning:
			held, err := tx.NewSelect().Model((*siteRow)(nil)).Where("crawl_id = ? AND lease_until > ?", id, stampOf(at)).Count(ctx)
			if err != nil {
				return s.wrap("read the crawl's hold", err)
			}
			if held > 0 { // a run holds it: it reads the cancel at its next renewal
				c.CancelRequested = true
				break
			}
			c.Status, c.FinishedAt, c.Settings.Headers = crawl.StatusCancelled, at, nil
			if err := s.releaseSite(ctx, tx, id); err != nil {
				return err
			}
		default:
			return crawl.ErrTransition
		}
		if out, err = s.updateCrawl(ctx, tx, c); err != nil {
			return err
		}
		if out.Status.Final() {
			return s.queueCrawlFinished(ctx, tx, out)
		}
		return nil
	})
	if err != nil {
		return crawl.Crawl{}, err
	}
	return out, nil
}

// DeleteCrawl implements ports.CrawlStore: the crawl's frontier, pages,
// links, issues and site hold go with its row (ON DELETE CASCADE), and
// its job with it while the job waits (dropWaiting), in one transaction.
func (s *CrawlStore) DeleteCrawl(ctx context.Context, userID, id int64) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.inTx(ctx, "delete crawl", func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewDelete().Model((*crawlRow)(nil)).Where("id = ? AND user_id = ?", id, userID).Exec(ctx)
		if err != nil {
			return s.wrap("delete crawl", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return crawl.ErrNotFound
		}
		return s.dropWaiting(ctx, tx, crawlJobKind, "crawl_id", "= ?", id)
	})
}

// Interface guard.
var _ ports.CrawlStore = (*CrawlStore)(nil)

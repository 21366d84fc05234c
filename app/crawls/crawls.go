package crawls

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// Defaults of Config.
const (
	// DefaultDailyPages is how many pages one user's crawls may ask for
	// a day (their max_pages, charged when a crawl is accepted).
	DefaultDailyPages = 10_000
	// DefaultActiveLimit is how many of one user's crawls may be queued
	// or running at once.
	DefaultActiveLimit = 3
	// DefaultUserAgent is the product token robots.txt is read for: the
	// fetcher's.
	DefaultUserAgent = "PinsightBot/1.0"
	// DefaultLease is how long a run holds its site and its URLs without
	// renewing: a crashed run's crawl resumes on another once it passes.
	DefaultLease = 30 * time.Second
	// DefaultSlice is how long one job run crawls before it snoozes to
	// go on in the next (so no run counts as stuck on the queue), giving
	// its site or worker to another user's crawl waiting for it
	// (crawl.Share).
	DefaultSlice = crawl.Slice
	// DefaultRenew is how often a run renews its hold and looks for a
	// cancel: a cancelled crawl stops within it plus a fetch's abort.
	DefaultRenew = time.Second
	// DefaultSiteRetry is how long a crawl waits before trying again for
	// a site another crawl holds.
	DefaultSiteRetry = crawl.SiteRetry
)

// Config tunes the crawls. Zero fields take the defaults.
type Config struct {
	// DailyPages is the daily page quota of one user (default
	// DefaultDailyPages; negative: none). Limiter keeps it.
	DailyPages int
	Limiter    ports.RateLimiter // nil: the daily quota is not enforced
	// ActiveLimit is how many crawls of one user may be queued or running
	// (default DefaultActiveLimit; negative: no cap).
	ActiveLimit int
	UserAgent   string            // default DefaultUserAgent
	Weights     pagecheck.Weights // default pagecheck.DefaultWeights
	Lease       time.Duration     // default DefaultLease
	Slice       time.Duration     // default DefaultSlice
	SiteRetry   time.Duration     // default DefaultSiteRetry
	Renew       time.Duration     // default DefaultRenew
	// Workers is how many crawls this process runs at once
	// (ports.JobSettings.CrawlWorkers; default
	// ports.DefaultCrawlWorkers): a run gives its worker to another
	// user's crawl waiting for one only while all are busy.
	Workers int
	Log     *slog.Logger // default slog.Default()
	// Keys keeps Idempotency-Key records (CreateOnce); nil refuses keys.
	Keys Keys
	// Clock tells the time (default time.Now): give it the Limiter's.
	Clock func() time.Time
	// Renderer renders the pages of crawls whose render setting asks for
	// it (nil: render on is refused, auto never renders).
	Renderer ports.Renderer
	// Renders keeps the daily quota of rendered pages, shared with
	// rendered analyses (nil: not enforced).
	Renders RenderQuota
}

func (c Config) withDefaults() Config {
	if c.DailyPages == 0 {
		c.DailyPages = DefaultDailyPages
	}
	if c.ActiveLimit == 0 {
		c.ActiveLimit = DefaultActiveLimit
	}
	if c.UserAgent == "" {
		c.UserAgent = DefaultUserAgent
	}
	if c.Weights == nil {
		c.Weights = pagecheck.DefaultWeights
	}
	if c.Lease <= 0 {
		c.Lease = DefaultLease
	}
	if c.Slice <= 0 {
		c.Slice = DefaultSlice
	}
	if c.Renew <= 0 {
		c.Renew = DefaultRenew
	}
	if c.SiteRetry <= 0 {
		c.SiteRetry = DefaultSiteRetry
	}
	if c.Workers <= 0 {
		c.Workers = ports.DefaultCrawlWorkers
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	if c.Clock == nil {
		c.Clock = time.Now
	}
	return c
}

// Crawls are the crawl use cases.
type Crawls struct {
	store   ports.CrawlStore
	queue   ports.CrawlQueue
	fetcher ports.SiteFetcher
	pw      accounts.PasswordHasher
	cfg     Config
	process string // names this process's runs in site holds
	clock   func() time.Time
	running atomic.Int32 // the runs in progress in this process (Run)
}

// New returns the crawl use cases over store, queue and fetcher, and sets
// queue's crawl worker to Run and its crawl sweep to StartDue.
func New(store ports.CrawlStore, queue ports.CrawlQueue, fetcher ports.SiteFetcher, pw accounts.PasswordHasher, cfg Config) *Crawls {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	cs := &Crawls{store: store, queue: queue, fetcher: fetcher, pw: pw, cfg: cfg.withDefaults(),
		process: hex.EncodeToString(b)}
	cs.clock = cs.cfg.Clock
	queue.SetCrawlWorker(cs.Run)
	queue.SetCrawlSweep(cs.StartDue)
	return cs
}

// QuotaError is returned when a crawl asks for more pages than the
// user's daily page quota has left: a fault.RateLimited.
type QuotaError struct {
	Limit int           // pages a day
	Asked int           // the crawl's max_pages
	Fit   int           // pages left now
	Wait  time.Duration // until Asked fit
}

func (e *QuotaError) Error() string {
	return "crawls: at most " + strconv.Itoa(e.Limit) + " crawled pages a day: this crawl asks for " + strconv.Itoa(e.Asked) +
		" (max_pages), " + strconv.Itoa(e.Fit) + " are left now; retry after " + strconv.Itoa(int(e.Wait.Round(time.Second)/time.Second)) + " s or ask for fewer"
}

// Kind implements fault.Kinder.
func (e *QuotaError) Kind() fault.Kind { return fault.RateLimited }

// RetryAfter implements fault.RetryAfterer.
func (e *QuotaError) RetryAfter() time.Duration { return e.Wait }

// dailyLimit is the daily page quota as a rate limit.
func (cs *Crawls) dailyLimit() ratelimit.Limit {
	if cs.cfg.DailyPages < 0 || cs.cfg.Limiter == nil {
		return ratelimit.Limit{}
	}
	return ratelimit.Limit{Requests: cs.cfg.DailyPages, Window: 24 * time.Hour}
}

// quotaKey is the limiter's key of a user's daily page quota.
func quotaKey(userID int64) string { return "crawl-pages-user:" + strconv.FormatInt(userID, 10) }

// admit charges a crawl's max_pages to its user's daily page quota and
// says when the charge is all back by itself (zero: nothing charged).
// More than the whole quota is a *report.ValidationError on max_pages; a
// failing limiter lets the crawl through (logged).
func (cs *Crawls) admit(ctx context.Context, userID int64, pages int) (time.Time, error) {
	limit := cs.dailyLimit()
	if !limit.Enabled() {
		return time.Time{}, nil
	}
	if pages > limit.Requests {
		return time.Time{}, report.Invalid("max_pages", "must be at most "+strconv.Itoa(limit.Requests)+", your daily page quota")
	}
	d, err := cs.cfg.Limiter.TakeN(ctx, quotaKey(userID), limit, pages)
	if err != nil {
		cs.cfg.Log.WarnContext(ctx, "crawl page quota unavailable; admitting anyway", "user", userID, "pages", pages, "err", err)
		return time.Time{}, nil
	}
	if !d.Allowed {
		return time.Time{}, &QuotaError{Limit: limit.Requests, Asked: pages, Fit: d.Remaining, Wait: d.RetryAfter}
	}
	return cs.clock().Add(d.Reset), nil
}

// charge charges crawl c's max_pages to its user's daily page quota and,
// when it renders, to their daily quota of renders (both or neither),
// setting c's QuotaUntil and RenderQuotaUntil.
func (cs *Crawls) charge(ctx context.Context, c *crawl.Crawl) error {
	var err error
	if c.QuotaUntil, err = cs.admit(ctx, c.UserID, c.Settings.MaxPages); err != nil {
		return err
	}
	if c.RenderQuotaUntil, err = cs.admitRenders(ctx, c.UserID, c.Settings); err != nil {
		cs.giveBack(ctx, *c, c.Settings.MaxPages, "refused:"+rand.Text())
		return err
	}
	return nil
}

// refund gives back all that charge took for c, which was not queued.
func (cs *Crawls) refund(ctx context.Context, c crawl.Crawl) {
	receipt := "refused:" + rand.Text()
	cs.giveBack(ctx, c, c.Settings.MaxPages, receipt)
	cs.returnRenders(ctx, c, c.Settings.MaxPages, receipt)
}

// Create validates p and queues a crawl of it for userID: its share
// password hashed, its max_pages charged to the user's daily page quota
// and, for a rendered crawl, to their daily quota of renders (given back
// when the crawl is refused), the crawl and its job written
// together, refused when the user has ActiveLimit crawls queued or
// running. Its start URL is checked with the fetcher's guard first
// (ports.SiteFetcher.Check), as a report's URL is when it is analysed:
// a refused target is not queued. idem, when not nil, is finished
// with the crawl. Errors: *report.ValidationError, *webpage.FetchError, *QuotaError,
// crawl.ErrActiveLimit, accounts.ErrPasswordsBusy, report.ErrClaimLost.
func (cs *Crawls) Create(ctx context.Context, userID int64, p crawl.Params, idem *report.Idempotency) (crawl.Crawl, error) {
	s, err := crawl.NewSettings(p)
	if err != nil {
		return crawl.Crawl{}, err
	}
	site, err := report.ProjectName(s.URL)
	if err != nil {
		return crawl.Crawl{}, report.Invalid("url", "cannot be crawled: it has no host name")
	}
	if cs.fetcher != nil {
		if err := cs.fetcher.Check(ctx, s.URL); err != nil {
			return crawl.Crawl{}, err
		}
	}
	c := crawl.Crawl{UserID: userID, Site: site, Politeness: politeness(s), Settings: s, CreatedAt: cs.clock()}
	if s.Password != "" {
		if c.PasswordHash, err = cs.pw.Hash(ctx, s.Password); err != nil {
			return crawl.Crawl{}, err
		}
	}
	if err := cs.renderSetting(s); err != nil {
		return crawl.Crawl{}, err
	}
	if err := cs.charge(ctx, &c); err != nil {
		return crawl.Crawl{}, err
	}
	out, _, err := cs.queue.CreateCrawlWithJob(ctx, c, max(cs.cfg.ActiveLimit, 0), idem)
	if err != nil {
		cs.refund(ctx, c)
	}
	return out, err
}

// ActiveLimit is how many of one user's crawls may be queued or running
// (0: no cap).
func (cs *Crawls) ActiveLimit() int { return max(cs.cfg.ActiveLimit, 0) }

// DailyPages is the daily page quota of one user (0: none).
func (cs *Crawls) DailyPages() int { return cs.dailyLimit().Requests }

// Get returns the user's crawl id. Errors: crawl.ErrNotFound.
func (cs *Crawls) Get(ctx context.Context, userID, id int64) (crawl.Crawl, error) {
	return cs.store.Crawl(ctx, userID, id)
}

// List returns the page of the user's crawls q selects and how many match.
func (cs *Crawls) List(ctx context.Context, userID int64, q crawl.ListQuery) ([]crawl.Crawl, int, error) {
	return cs.store.Crawls(ctx, userID, q)
}

// Cancel cancels the user's crawl id: a queued one at once (its pages
// given back, returnUnused), a running one within a few seconds (its run
// stops, keeps what it found and gives back the rest). Errors:
// crawl.ErrNotFound, crawl.ErrTransition.
func (cs *Crawls) Cancel(ctx context.Context, userID, id int64) (crawl.Crawl, error) {
	c, err := cs.store.CancelCrawl(ctx, userID, id, cs.clock())
	if err == nil && c.Status.Final() {
		cs.returnUnused(ctx, c)
	}
	return c, err
}

// Delete deletes the user's crawl id with what it found (its waiting job
// too; a running one stops at its next renewal), giving back the pages it
// had not crawled (returnUnused). Errors: crawl.ErrNotFound.
func (cs *Crawls) Delete(ctx context.Context, userID, id int64) error {
	c, err := cs.store.Crawl(ctx, userID, id)
	if err != nil {
		return err
	}
	if err := cs.store.DeleteCrawl(ctx, userID, id); err != nil {
		return err
	}
	cs.returnUnused(ctx, c)
	return nil
}

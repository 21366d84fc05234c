package reports

import (
	"context"
	"strconv"
	"time"

	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// ErrBusy is returned when every analysis slot is taken: a fault.Busy
// whose RetryAfter is BusyRetryAfter.
var ErrBusy = fault.NewRetry(fault.Busy, "reports: every analysis slot is busy: retry shortly", BusyRetryAfter)

// BusyRetryAfter is the wait before a retry that ErrBusy, and a QuotaError
// on the analyses running at once, suggest: analyses take seconds, so a
// slot frees up soon.
const BusyRetryAfter = 5 * time.Second

// ThrottledError is returned when a target site, or the address it is
// served from, has had its share of analyses for now: a fault.RateLimited.
type ThrottledError struct {
	Host string        // the site (registrable domain) or the address throttled
	Wait time.Duration // until the next analysis is admitted
}

func (e *ThrottledError) Error() string {
	return "reports: too many analyses of " + e.Host + ": retry after " + strconv.Itoa(RetryAfterSeconds(e.Wait)) + " s"
}

// Kind implements fault.Kinder.
func (e *ThrottledError) Kind() fault.Kind { return fault.RateLimited }

// RetryAfter implements fault.RetryAfterer.
func (e *ThrottledError) RetryAfter() time.Duration { return e.Wait }

// QuotaError is returned when the calling user has used up one of their own
// analysis quotas, apart from the pool everyone shares (ErrBusy): analyses
// running at once, or analyses a day. It is a fault.RateLimited.
type QuotaError struct {
	Daily bool          // the daily quota; otherwise the analyses at once
	Limit int           // the quota
	Wait  time.Duration // until the user may start one more (Asked: all of them)
	// Rendered says the quota is one of rendered analyses (a day, or at
	// once), apart from the analyses' own.
	Rendered bool
	// Asked is how many analyses were asked for at once (a batch); 0 or 1
	// for one.
	Asked int
	// Fit is, for a daily quota denying more than one analysis, how many
	// of them fit now.
	Fit int
}

func (e *QuotaError) Error() string { return "reports: " + e.Reason() }

// Kind implements fault.Kinder.
func (e *QuotaError) Kind() fault.Kind { return fault.RateLimited }

// RetryAfter implements fault.RetryAfterer.
func (e *QuotaError) RetryAfter() time.Duration { return e.Wait }

// Reason says which quota is used up, for the client.
func (e *QuotaError) Reason() string {
	what := "analyses"
	if e.Rendered {
		what = "rendered analyses"
	}
	if e.Daily && e.Asked > 1 {
		return "at most " + strconv.Itoa(e.Limit) + " " + what + " a day: " + strconv.Itoa(e.Fit) + " of these " +
			strconv.Itoa(e.Asked) + " fit now, all of them after " + strconv.Itoa(RetryAfterSeconds(e.Wait)) + " s"
	}
	if e.Daily {
		return "at most " + strconv.Itoa(e.Limit) + " " + what + " a day: retry after " + strconv.Itoa(RetryAfterSeconds(e.Wait)) + " s"
	}
	return "at most " + strconv.Itoa(e.Limit) + " of your " + what + " run at once: retry when one finishes"
}

// RetryAfterSeconds rounds d up to whole seconds, at least 1, as error
// texts give a delay.
func RetryAfterSeconds(d time.Duration) int {
	s := int((d + time.Second - 1) / time.Second)
	return max(s, 1)
}

// Defaults of AnalyserConfig.
var (
	// DefaultHostLimit is how often one target site (registrable domain)
	// may be analysed: a few times a minute, so the analyser never hammers
	// a third-party site.
	DefaultHostLimit = ratelimit.Limit{Requests: 5, Window: time.Minute}
	// DefaultAddressLimit is how often one address may be contacted: higher
	// than the per-site quota, so sites sharing a CDN address do not
	// throttle each other, yet many names of one server cannot multiply
	// its quota.
	DefaultAddressLimit = ratelimit.Limit{Requests: 30, Window: time.Minute}
	// DefaultUserDaily is how many analyses one user may start a day.
	DefaultUserDaily = ratelimit.Limit{Requests: 300, Window: 24 * time.Hour}
)

// DefaultUserConcurrent is how many analyses one user may run at once.
const DefaultUserConcurrent = 2

// NoLimit disables a quota of AnalyserConfig (tests, private deployments).
var NoLimit = ratelimit.Limit{Window: -1}

// AnalyserConfig bounds the analyser. Zero fields take the defaults.
type AnalyserConfig struct {
	Workers int               // analyses running at once, all users together (default 4)
	Weights pagecheck.Weights // score weights (default pagecheck.DefaultWeights)
	// UserConcurrent is how many analyses one user may run at once
	// (default DefaultUserConcurrent; negative: no cap). It is counted in
	// this process.
	UserConcurrent int
	// UserDaily is the quota of analyses one user may start, re-analyses
	// included (default DefaultUserDaily; NoLimit disables it).
	UserDaily ratelimit.Limit
	// HostLimit is the quota of analyses per target site, its registrable
	// domain (default DefaultHostLimit; NoLimit disables it).
	HostLimit ratelimit.Limit
	// AddressLimit is the quota of analyses per address a target resolves
	// to (default DefaultAddressLimit; NoLimit disables it).
	AddressLimit ratelimit.Limit
	// Renderer loads pages in a browser for the analyses whose render mode
	// asks for it (nil: none can render; render on is refused, auto never
	// renders).
	Renderer ports.Renderer
	// UserRenderDaily is the quota of rendered analyses (render on or auto)
	// one user may start a day (default DefaultUserRenderDaily; NoLimit
	// disables it). One user renders one page at a time.
	UserRenderDaily ratelimit.Limit
	// Limiter keeps the state of UserDaily, HostLimit and AddressLimit: the
	// graph's ports.RateLimiter, so a shared limiter enforces them across
	// instances. Nil leaves those three unenforced (tests).
	Limiter ports.RateLimiter
}

// Analyser fetches a URL through the PageFetcher and runs the checks. It
// admits an analysis in order: the user's analyses at once (a QuotaError),
// a slot of the pool of Workers (ErrBusy: it refuses rather than queues),
// the user's daily quota (a QuotaError) unless the work was admitted
// already (Admit took it when the work was accepted: queued jobs never
// take it); then, as the fetcher connects, each target site and address (a
// *ThrottledError).
type Analyser struct {
	fetcher ports.PageFetcher
	weights pagecheck.Weights
	slots   chan struct{}
	users   *ratelimit.Slots // each user's analyses running in this process
	limiter ports.RateLimiter
	daily   ratelimit.Limit
	perSite ratelimit.Limit
	perAddr ratelimit.Limit

	renderer    ports.Renderer
	renderDaily ratelimit.Limit
	renders     *ratelimit.Slots // each user's renders running in this process
}

// NewAnalyser returns an analyser over fetcher.
func NewAnalyser(fetcher ports.PageFetcher, cfg AnalyserConfig) *Analyser {
	if cfg.Workers <= 0 {
		cfg.Workers = 4
	}
	if cfg.Weights == nil {
		cfg.Weights = pagecheck.DefaultWeights
	}
	if cfg.UserConcurrent == 0 {
		cfg.UserConcurrent = DefaultUserConcurrent
	}
	orDefault := func(l, def ratelimit.Limit) ratelimit.Limit {
		if l == (ratelimit.Limit{}) {
			return def
		}
		return l
	}
	return &Analyser{fetcher: fetcher, weights: cfg.Weights, slots: make(chan struct{}, cfg.Workers),
		users: ratelimit.NewSlots(cfg.UserConcurrent), limiter: cfg.Limiter,
		daily:    orDefault(cfg.UserDaily, DefaultUserDaily),
		perSite:  orDefault(cfg.HostLimit, DefaultHostLimit),
		perAddr:  orDefault(cfg.AddressLimit, DefaultAddressLimit),
		renderer: cfg.Renderer, renderDaily: orDefault(cfg.UserRenderDaily, DefaultUserRenderDaily), renders: ratelimit.NewSlots(1)}
}

// Analyse fetches rawURL and analyses it for user userID, rendered in the
// browser too as mode says (see analyse), without its screenshots: a
// library user's shortcut. Errors: *QuotaError, ErrBusy, *ThrottledError,
// *webpage.FetchError.
func (a *Analyser) Analyse(ctx context.Context, userID int64, rawURL string, mode pagecheck.RenderMode) (pagecheck.Analysis, error) {
	an, _, err := a.AnalyseWithScreenshots(ctx, userID, rawURL, mode, report.ScreenshotViewport)
	return an, err
}

// AnalyseWithScreenshots implements PageAnalyser: Analyse keeping the
// screenshots of a rendered analysis, bounded (report.Screenshots.Bounded):
// the first screen's, and the whole page's too with shots
// report.ScreenshotFull. An analysis that did not render has none.
func (a *Analyser) AnalyseWithScreenshots(ctx context.Context, userID int64, rawURL string, mode pagecheck.RenderMode, shots report.ScreenshotMode) (pagecheck.Analysis, report.Screenshots, error) {
	release, ok := a.users.Take(userID)
	if !ok {
		return pagecheck.Analysis{}, report.Screenshots{}, &QuotaError{Limit: a.users.Max(), Wait: BusyRetryAfter}
	}
	defer release()
	select {
	case a.slots <- struct{}{}:
		defer func() { <-a.slots }()
	default:
		return pagecheck.Analysis{}, report.Screenshots{}, ErrBusy
	}
	if err := a.takeDaily(ctx, userID); err != nil {
		return pagecheck.Analysis{}, report.Screenshots{}, err
	}
	f, err := a.fetcher.Fetch(ctx, rawURL, a.admission(userID))
	if err != nil {
		return pagecheck.Analysis{}, report.Screenshots{}, err
	}
	return a.analyse(ctx, userID, f, mode, shots)
}

// Saturation reports the slots in use and the pool size (for metrics).
func (a *Analyser) Saturation() (inUse, size int) { return len(a.slots), cap(a.slots) }

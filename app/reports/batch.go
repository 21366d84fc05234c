package reports

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/report"
)

// MaxBatch is how many URLs one batch may hold.
const MaxBatch = 100

// NewBatch is the input of CreateBatch: URLs to analyse with one privacy
// and password for all. Nil fields were not sent.
type NewBatch struct {
	URLs     []string
	Privacy  *int
	Password *string
	// IdempotencyKey names the request ("" none), as NewReport's does: sent
	// again with the same input, it queues nothing and answers the reports
	// it queued, as they are now (deleted ones left out).
	IdempotencyKey string
	// Render is how every report of the batch is analysed, as
	// NewReport.Render.
	Render *string
	// Screenshot is which screenshots every report of the batch keeps, as
	// NewReport.Screenshot.
	Screenshot *string
}

// BatchCreated is the outcome of CreateBatch: its reports are stored
// pending, a replay's included (report.OutcomeAccepted).
type BatchCreated struct {
	Reports []report.Report
	// Replayed tells that an earlier request with the same idempotency key
	// queued the reports.
	Replayed bool
}

// siteLimiter is implemented by analysers that throttle each target site
// (*Analyser): a batch spreads its jobs in time to fit the quota.
type siteLimiter interface {
	SiteLimit() ratelimit.Limit
}

// SiteLimit returns the quota of analyses per target site.
func (a *Analyser) SiteLimit() ratelimit.Limit { return a.perSite }

// ErrNoJobs is returned by CreateBatch when analyses are not durable jobs
// (no WithJobs): a batch is only ever queued.
var ErrNoJobs = report.Invalid("urls", "batches need the job queue, which this server does not run")

// CreateBatch validates in and stores one pending report per URL with its
// analysis job, all in one transaction, answering at once (their jobs run
// later). Every invalid URL is reported (urls[i]) and nothing is stored.
// The per-site throttle spreads the jobs in time instead of failing them:
// past the site's quota, each further URL of one site runs a quota window
// later; throttles and the user's analyses at once still snooze a job that
// meets them. The user's daily quota is charged for the whole batch as it
// is accepted, all or nothing (the jobs, their retries and snoozes, are
// then free): a batch that does not fit is a daily *QuotaError saying how
// many of its URLs fit now and when all do (429 with Retry-After), and one
// larger than the whole daily quota, which never fits, a
// *report.ValidationError on urls. Errors: *report.ValidationError,
// accounts.ErrPasswordsBusy, ErrNoJobs, *QuotaError, and with an
// idempotency key those of Create's.
func (rs *Reports) CreateBatch(ctx context.Context, userID int64, in NewBatch) (BatchCreated, error) {
	if rs.jobs == nil {
		return BatchCreated{}, ErrNoJobs
	}
	if len(in.URLs) == 0 || len(in.URLs) > MaxBatch {
		return BatchCreated{}, report.Invalid("urls", "must hold 1 to "+strconv.Itoa(MaxBatch)+" URLs")
	}
	if daily := rs.dailyLimit(); daily.Enabled() && len(in.URLs) > daily.Requests {
		return BatchCreated{}, report.Invalid("urls", "holds "+strconv.Itoa(len(in.URLs))+" URLs, more than the "+
			strconv.Itoa(daily.Requests)+" analyses a day your quota allows: send at most "+strconv.Itoa(daily.Requests)+" at once")
	}
	invalid := &report.ValidationError{Fields: map[string][]string{}}
	for i, u := range in.URLs {
		if err := report.CheckURL(u); err != nil {
			for _, msgs := range err.(*report.ValidationError).Fields {
				invalid.Fields["urls["+strconv.Itoa(i)+"]"] = msgs
			}
		}
	}
	if len(invalid.Fields) > 0 {
		return BatchCreated{}, invalid
	}
	privacy := report.DefaultPrivacy
	if in.Privacy != nil {
		p, err := report.ParsePrivacy(*in.Privacy)
		if err != nil {
			return BatchCreated{}, err
		}
		privacy = p
	}
	password, err := report.SharePassword(privacy, in.Password, false)
	if err != nil {
		return BatchCreated{}, err
	}
	mode, err := rs.renderOf(in.Render)
	if err != nil {
		return BatchCreated{}, err
	}
	shots, err := screenshotOf(in.Screenshot, mode)
	if err != nil {
		return BatchCreated{}, err
	}
	if in.IdempotencyKey != "" {
		return rs.batchOnce(ctx, userID, in, privacy, password, mode, shots)
	}
	out, err := rs.createBatch(ctx, userID, in.URLs, privacy, password, mode, shots, nil)
	return BatchCreated{Reports: out}, err
}

// batchOnce is CreateBatch under the idempotency key in.IdempotencyKey, as
// createOnce is Create's.
func (rs *Reports) batchOnce(ctx context.Context, userID int64, in NewBatch, privacy report.Privacy, password string, mode pagecheck.RenderMode, shots report.ScreenshotMode) (BatchCreated, error) {
	idem, cur, claimed, now, err := rs.claimKey(ctx, userID, in.IdempotencyKey,
		batchFingerprint(userID, in.IdempotencyKey, in.URLs, privacy, password, mode, shots))
	if err != nil {
		return BatchCreated{}, err
	}
	if !claimed {
		if err := CheckReplay(cur, idem.Fingerprint, now); err != nil {
			return BatchCreated{}, err
		}
		out := make([]report.Report, 0, len(cur.ReportIDs))
		for _, id := range cur.ReportIDs {
			r, err := rs.store.Report(ctx, userID, id)
			if errors.Is(err, report.ErrNotFound) {
				continue
			} else if err != nil {
				return BatchCreated{}, err
			}
			out = append(out, r)
		}
		return BatchCreated{Reports: out, Replayed: true}, nil
	}
	finished := idem
	finished.Outcome = report.OutcomeAccepted
	out, err := rs.createBatch(ctx, userID, in.URLs, privacy, password, mode, shots, &finished)
	if err != nil {
		return BatchCreated{}, rs.settleKey(ctx, idem, err)
	}
	return BatchCreated{Reports: out}, nil
}

// batchFingerprint is the digest of a batch request a replay must match.
func batchFingerprint(userID int64, key string, urls []string, privacy report.Privacy, password string, mode pagecheck.RenderMode, shots report.ScreenshotMode) string {
	h := sha256.New()
	fmt.Fprintf(h, "create-batch\x00%d\x00%s\x00%d\x00%s", userID, key, privacy, password)
	if mode != pagecheck.RenderOff { // off keeps the fingerprints of requests from before rendering
		fmt.Fprintf(h, "\x00render=%s", mode)
	}
	if shots == report.ScreenshotFull { // viewport keeps the fingerprints of requests from before screenshots
		fmt.Fprintf(h, "\x00screenshot=%s", shots)
	}
	for _, u := range urls {
		fmt.Fprintf(h, "\x00%s", u)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// createBatch hashes the password and stores one pending report per URL
// with its job (spread in time), finishing idem in the same transaction.
func (rs *Reports) createBatch(ctx context.Context, userID int64, urls []string, privacy report.Privacy, password string, mode pagecheck.RenderMode, shots report.ScreenshotMode, idem *report.Idempotency) ([]report.Report, error) {
	hash, err := rs.hash(ctx, password)
	if err != nil {
		return nil, err
	}
	if ctx, err = rs.admit(ctx, userID, len(urls), mode); err != nil {
		return nil, err
	}
	now := rs.clock()
	reports := make([]report.Report, len(urls))
	for i, u := range urls {
		project, err := report.ProjectName(u)
		if err != nil {
			return nil, err
		}
		reports[i] = report.Report{UserID: userID, URL: u, Project: project, Privacy: privacy, PasswordHash: hash, Render: mode, Screenshot: shots,
			Status: report.StatusPending, CreatedAt: now, UpdatedAt: now, GeneratedAt: now}
	}
	out, _, err := rs.jobs.jobs.CreateManyWithJobs(ctx, reports, idem, rs.spread(urls, time.Now()))
	return out, err
}

// spread is when each URL's job runs: the first quota's worth of one
// site's URLs at once, each further quota's worth one window later.
func (rs *Reports) spread(urls []string, now time.Time) []time.Time {
	at := make([]time.Time, len(urls))
	sl, ok := rs.analyser.(siteLimiter)
	if !ok || !sl.SiteLimit().Enabled() {
		return at
	}
	limit := sl.SiteLimit()
	seen := map[string]int{}
	for i, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil {
			continue
		}
		s := siteOf(u.Hostname())
		if k := seen[s]; k >= limit.Requests {
			at[i] = now.Add(time.Duration(k/limit.Requests) * limit.Window)
		}
		seen[s]++
	}
	return at
}

package crawls

import (
	"context"
	"errors"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
)

// dueBatch bounds the scheduled crawls one sweep starts; the next sweep
// takes the rest.
const dueBatch = 100

// activeWait is how long a scheduled run refused for the user's active
// crawls cap waits before it is tried again.
const activeWait = 15 * time.Minute

// StartDue starts the scheduled crawls due at now (the queue's periodic
// sweep runs it, SetCrawlSweep): for each crawl whose schedule is due, a
// new crawl with its settings (crawl.Crawl.Rerun), charged to the user's
// daily page quota and capped by ActiveLimit as a crawl the user asks for.
// A run the quota refuses waits until the quota fits it, one the cap
// refuses activeWait, one refused for good (a max_pages above today's
// quota) a period; the schedule stays. Errors of one crawl are logged and
// do not stop the others; the store's failure to list them is returned.
func (cs *Crawls) StartDue(ctx context.Context, now time.Time) error {
	due, err := cs.store.DueCrawls(ctx, now, dueBatch)
	if err != nil {
		return err
	}
	for _, src := range due {
		cs.startRun(ctx, src, now)
	}
	return nil
}

// startRun starts the scheduled run of src at now, or defers it.
func (cs *Crawls) startRun(ctx context.Context, src crawl.Crawl, now time.Time) {
	log := cs.cfg.Log.With("crawl", src.ID, "user", src.UserID)
	run := src.Rerun(now)
	run.Politeness = politeness(run.Settings) // the unit of today's rules, whatever src was stored with
	wait := time.Duration(0)
	err := cs.underCap(ctx, src.UserID)
	if err == nil {
		err = cs.renderSetting(run.Settings)
	}
	if err == nil {
		err = cs.charge(ctx, &run)
	}
	if err == nil {
		var out crawl.Crawl
		out, _, err = cs.queue.CreateCrawlWithJob(ctx, run, cs.ActiveLimit(), nil)
		if err == nil {
			log.InfoContext(ctx, "scheduled crawl started", "run", out.ID)
			return
		}
		cs.refund(ctx, run)
	}
	var quota *QuotaError
	switch {
	case errors.Is(err, crawl.ErrNotDue):
		return // turned off, or started elsewhere
	case errors.As(err, &quota):
		wait = quota.Wait
	case errors.Is(err, crawl.ErrActiveLimit):
		wait = activeWait
	default:
		var invalid *report.ValidationError
		if !errors.As(err, &invalid) {
			log.WarnContext(ctx, "scheduled crawl not started; trying again at the next sweep", "err", err)
			return
		}
		wait = src.Settings.Schedule.Period()
	}
	log.InfoContext(ctx, "scheduled crawl deferred", "reason", err, "wait", wait)
	if err := cs.store.DeferRun(ctx, src.ID, now.Add(wait)); err != nil && !errors.Is(err, crawl.ErrNotFound) {
		log.WarnContext(ctx, "scheduled crawl not deferred", "err", err)
	}
}

// underCap is crawl.ErrActiveLimit when the user has ActiveLimit crawls
// queued or running, checked before a scheduled run is charged to the
// quota (the store checks again, atomically, when it creates the run).
func (cs *Crawls) underCap(ctx context.Context, userID int64) error {
	limit := cs.ActiveLimit()
	if limit == 0 {
		return nil
	}
	active := 0
	for _, st := range []crawl.Status{crawl.StatusQueued, crawl.StatusRunning} {
		_, n, err := cs.store.Crawls(ctx, userID, crawl.ListQuery{Status: st, SortBy: crawl.SortByCreatedAt, Page: paging.Page{Number: 1, PerPage: 1}})
		if err != nil {
			return err
		}
		active += n
	}
	if active >= limit {
		return crawl.ErrActiveLimit
	}
	return nil
}

// SetSchedule changes the schedule of the user's crawl id (daily, weekly
// or off); the next run comes one period from now. The same schedule
// changes nothing. A crawl without a schedule (never given one, or turned
// off) cannot be given one: crawl.ErrScheduleNotSet.
// Errors: crawl.ErrNotFound, *report.ValidationError.
func (cs *Crawls) SetSchedule(ctx context.Context, userID, id int64, schedule string) (crawl.Crawl, error) {
	sch, err := report.ParseSchedule(schedule)
	if err != nil {
		return crawl.Crawl{}, err
	}
	c, err := cs.store.Crawl(ctx, userID, id)
	if err != nil {
		return crawl.Crawl{}, err
	}
	switch {
	case sch == c.Settings.Schedule && (sch == report.ScheduleOff || !c.NextRunAt.IsZero()):
		return c, nil
	case c.Settings.Schedule == report.ScheduleOff && sch != report.ScheduleOff:
		return crawl.Crawl{}, crawl.ErrScheduleNotSet
	}
	now := cs.clock()
	return cs.store.SetSchedule(ctx, userID, id, sch, crawl.NextRun(sch, now))
}

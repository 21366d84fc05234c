package crawl

import (
	"slices"
	"time"

	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/report"
)

// A crawl with a schedule (Settings.Schedule, as a report's) crawls its
// site again by itself: once it is final and its NextRunAt has come, and
// no run it started is queued or running, a new crawl with the same
// settings (Rerun) is created, charged and capped as a crawl the user asks
// for. The schedule stays with the crawl that has it: each run is a crawl
// of its own, naming it in ScheduledFrom, so the diff of a run against the
// previous finished crawl of the site compares two runs.

// ErrNotDue is returned when a scheduled run is created for a crawl that
// is no longer due (its schedule was turned off or moved on, or another
// run was started first): nothing is stored.
var ErrNotDue = fault.New(fault.Conflict, "crawl: the crawl's scheduled run is not due")

// ErrScheduleNotSet is returned when a schedule is to be set on a crawl
// without one: a schedule is set when a crawl is created, and may then be
// changed or turned off only (a crawl's request headers, which its runs
// would need, are forgotten when it ends, so a crawl cannot tell later
// whether it had any). A *report.ValidationError on field schedule.
var ErrScheduleNotSet error = report.Invalid("schedule",
	"can only be changed or turned off: this crawl has no schedule; create a new crawl with one")

// Due reports whether c's scheduled run is to start at now, as far as c
// itself tells: it has a schedule, it is final and its NextRunAt has come.
// (Stores check besides that no run it started is still active.)
func (c Crawl) Due(now time.Time) bool {
	return c.Settings.Schedule != report.ScheduleOff && c.Status.Final() && !c.NextRunAt.IsZero() && !c.NextRunAt.After(now)
}

// Rerun is the crawl c's schedule starts at now: the same user, site,
// politeness unit and settings (without a schedule of its own, and
// without request headers, which are never kept past a crawl's end), the
// same share password, and ScheduledFrom c.
func (c Crawl) Rerun(now time.Time) Crawl {
	s := c.Settings
	s.Include, s.Exclude = slices.Clone(s.Include), slices.Clone(s.Exclude)
	s.Headers, s.Password, s.Schedule = nil, "", report.ScheduleOff
	return Crawl{UserID: c.UserID, Site: c.Site, Politeness: c.Politeness, Settings: s, PasswordHash: c.PasswordHash, ScheduledFrom: c.ID, CreatedAt: now}
}

// NextRun is when a crawl given schedule s at now runs next: one period
// later; zero for no schedule.
func NextRun(s report.Schedule, now time.Time) time.Time {
	if s == report.ScheduleOff {
		return time.Time{}
	}
	return now.Add(s.Period())
}

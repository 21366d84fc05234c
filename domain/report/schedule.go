package report

import (
	"slices"
	"strconv"
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck"
)

// Schedule is how often a report is analysed again by itself: never (""),
// daily or weekly.
type Schedule string

// Schedules.
const (
	ScheduleOff    Schedule = ""
	ScheduleDaily  Schedule = "daily"
	ScheduleWeekly Schedule = "weekly"
)

// ParseSchedule accepts daily, weekly, and off or "" for none.
func ParseSchedule(s string) (Schedule, error) {
	switch s {
	case "", "off":
		return ScheduleOff, nil
	case string(ScheduleDaily), string(ScheduleWeekly):
		return Schedule(s), nil
	}
	return "", Invalid("schedule", "must be daily, weekly or off")
}

// MaxScheduled is how many of one user's reports may have a schedule. A
// scheduled run is not charged to the user's daily quota of analyses (it
// is charged when work is accepted, and a schedule accepts work by itself):
// this cap bounds scheduled work instead. 50 daily schedules run at most 50
// analyses a day, a sixth of the default daily quota of 300 for the user's
// own requests, so one user's queue gets at most 350 analyses a day; and
// each scheduled report has at most one run queued at a time (a sweep only
// starts a report whose last run finished). Stores refuse a write that
// would pass it with ErrTooManyScheduled, counting and writing in one
// transaction.
const MaxScheduled = 50

// ErrTooManyScheduled is the refusal of a schedule past MaxScheduled: a
// *ValidationError on field schedule. Compare it with errors.Is.
var ErrTooManyScheduled error = &scheduleCapError{Invalid("schedule",
	"at most "+strconv.Itoa(MaxScheduled)+" of your reports may be scheduled (scheduled runs are not charged to your daily quota, so their number is capped): turn another report's schedule off first")}

// scheduleCapError is ErrTooManyScheduled's type: a *ValidationError that
// errors.Is recognises.
type scheduleCapError struct{ *ValidationError }

// Unwrap returns the *ValidationError, for errors.As.
func (e *scheduleCapError) Unwrap() error { return e.ValidationError }

// Period is the time between two scheduled runs; 0 for none.
func (s Schedule) Period() time.Duration {
	switch s {
	case ScheduleDaily:
		return 24 * time.Hour
	case ScheduleWeekly:
		return 7 * 24 * time.Hour
	}
	return 0
}

// Run is one finished analysis of a report, as its history keeps it.
type Run struct {
	ReportID int64
	At       time.Time
	Score    int
	Rating   pagecheck.Rating
	Failing  []string // ids of the failed checks, sorted
}

// RunOf is the history entry of report r's current analysis.
func RunOf(r Report) Run {
	failing := []string{}
	for _, checks := range r.Results {
		for _, c := range checks {
			if !c.Passed {
				failing = append(failing, c.ID)
			}
		}
	}
	slices.Sort(failing)
	return Run{ReportID: r.ID, At: r.GeneratedAt, Score: r.Score, Rating: r.Rating, Failing: failing}
}

// Changes are the checks that started failing (Broken) and stopped failing
// (Fixed) from prev to cur, each sorted.
func Changes(prev, cur Run) (broken, fixed []string) {
	broken, fixed = []string{}, []string{}
	for _, id := range cur.Failing {
		if !slices.Contains(prev.Failing, id) {
			broken = append(broken, id)
		}
	}
	for _, id := range prev.Failing {
		if !slices.Contains(cur.Failing, id) {
			fixed = append(fixed, id)
		}
	}
	return broken, fixed
}

package report

import (
	"slices"
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

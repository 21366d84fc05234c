package memory

import (
	"context"
	"slices"
	"time"

	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// AddRun implements ports.ReportHistory.
func (s *ReportStore) AddRun(_ context.Context, userID int64, run report.Run) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sr, found := s.reports[run.ReportID]; !found || sr.UserID != userID {
		return report.ErrNotFound
	}
	if s.runs == nil {
		s.runs = map[int64][]report.Run{}
	}
	run.Failing = slices.Clone(run.Failing)
	s.runs[run.ReportID] = append(s.runs[run.ReportID], run)
	return nil
}

// Runs implements ports.ReportHistory: a deleted report has none (its
// runs are dropped with it lazily, here).
func (s *ReportStore) Runs(_ context.Context, userID, id int64, limit int) ([]report.Run, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sr, found := s.reports[id]
	if !found || sr.UserID != userID {
		delete(s.runs, id)
		return []report.Run{}, nil
	}
	runs := s.runs[id]
	out := make([]report.Run, 0, min(limit, len(runs)))
	for i := len(runs) - 1; i >= 0 && len(out) < limit; i-- {
		r := runs[i]
		r.Failing = slices.Clone(r.Failing)
		out = append(out, r)
	}
	return out, nil
}

// markDue returns the finished scheduled reports due at now, at
// most limit, marking each pending with its next run a period past now.
func (s *ReportStore) markDue(now time.Time, limit int) []report.Report {
	s.mu.Lock()
	defer s.mu.Unlock()
	var due []report.Report
	for id, sr := range s.reports {
		if len(due) == limit {
			break
		}
		if sr.Schedule == report.ScheduleOff || sr.NextRunAt.After(now) || !sr.Status.Finished() {
			continue
		}
		sr.Status, sr.Attempts, sr.Failure = report.StatusPending, 0, ""
		sr.NextRunAt = now.Add(sr.Schedule.Period())
		s.reports[id] = sr
		due = append(due, sr.Report)
	}
	return due
}

// EnqueueDue implements ports.Jobs.
func (j *Jobs) EnqueueDue(_ context.Context, now time.Time, limit int) (int, error) {
	due := j.store.markDue(now, limit)
	for _, r := range due {
		j.enqueue(r.ID, r.UserID, time.Time{})
	}
	return len(due), nil
}

// Interface guard.
var _ ports.ReportHistory = (*ReportStore)(nil)

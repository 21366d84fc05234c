package reports

import (
	"context"
	"log/slog"
	"time"

	"github.com/pinsight/pinsight/domain/report"
)

// MaxHistory is how many runs History returns, newest first.
const MaxHistory = 100

// HistoryEntry is one run of a report with what changed since the run
// before it (both empty for the first).
type HistoryEntry struct {
	report.Run
	Broken []string // checks failing now that passed before
	Fixed  []string // checks passing now that failed before
}

// History returns the runs of the user's report id, newest first (at most
// MaxHistory), each with the checks that changed since the previous run.
// Errors: report.ErrNotFound.
func (rs *Reports) History(ctx context.Context, userID, id int64) ([]HistoryEntry, error) {
	if _, err := rs.store.Report(ctx, userID, id); err != nil {
		return nil, err
	}
	if rs.history == nil {
		return []HistoryEntry{}, nil
	}
	runs, err := rs.history.Runs(ctx, userID, id, MaxHistory+1)
	if err != nil {
		return nil, err
	}
	out := make([]HistoryEntry, 0, min(len(runs), MaxHistory))
	for i := 0; i < len(runs) && i < MaxHistory; i++ {
		e := HistoryEntry{Run: runs[i], Broken: []string{}, Fixed: []string{}}
		if i+1 < len(runs) {
			e.Broken, e.Fixed = report.Changes(runs[i+1], runs[i])
		}
		out = append(out, e)
	}
	return out, nil
}

// record adds r's finished analysis to its history; a failure to record is
// logged (the report itself is stored). The report.finished event of r is
// not queued here: the store's write that finished r queued it.
func (rs *Reports) record(ctx context.Context, r report.Report) {
	if rs.history == nil || r.Status != report.StatusGenerated {
		return
	}
	if err := rs.history.AddRun(context.WithoutCancel(ctx), r.UserID, report.RunOf(r)); err != nil {
		slog.WarnContext(ctx, "reports: record a run in the history", "report", r.ID, "err", err)
	}
}

// setSchedule gives r schedule s, its next run a period after now (none
// when off).
func setSchedule(r *report.Report, s report.Schedule, now time.Time) {
	r.Schedule, r.NextRunAt = s, time.Time{}
	if p := s.Period(); p > 0 {
		r.NextRunAt = now.Add(p)
	}
}

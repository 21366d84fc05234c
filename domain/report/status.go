package report

// Status is where a report is in its lifecycle: an analysis is queued
// (pending), under way (running), finished with a result (generated), or
// given up (failed, with the reason in Report.Failure).
type Status string

// Report statuses.
const (
	StatusPending   Status = "pending"
	StatusRunning   Status = "running"
	StatusGenerated Status = "generated"
	StatusFailed    Status = "failed"
)

// MaxAnalysisAttempts is how many times a queued analysis is tried before
// its report is failed: timeouts, resets and 5xx answers are retried.
const MaxAnalysisAttempts = 3

// parseStatus accepts the four statuses by name.
func parseStatus(s string) (Status, bool) {
	switch st := Status(s); st {
	case StatusPending, StatusRunning, StatusGenerated, StatusFailed:
		return st, true
	}
	return "", false
}

// Finished reports whether no analysis of the report is queued or running.
func (s Status) Finished() bool { return s == StatusGenerated || s == StatusFailed }

// StatusOrGenerated is s, or StatusGenerated for the zero Status: a report
// stored without a status holds a finished analysis (the stores' default).
func StatusOrGenerated(s Status) Status {
	if s == "" {
		return StatusGenerated
	}
	return s
}

// Finishes reports whether a write that turns prev into next finishes an
// analysis of the report: next is finished and prev was not (a new report
// is written over the zero Report), or next holds another analysis than
// prev (its GeneratedAt moved: a re-analysis stored at once, without a
// pending state between). Other writes of a finished report (privacy, a
// password, a schedule) finish nothing.
func Finishes(prev, next Report) bool {
	return next.Status.Finished() && (!prev.Status.Finished() || !prev.GeneratedAt.Equal(next.GeneratedAt))
}

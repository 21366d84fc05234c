package report

import "github.com/pinsight/pinsight/domain/fault"

// ErrNotFound is returned for a report or project that does not exist or
// belongs to another user (the two are never told apart).
var ErrNotFound = fault.New(fault.NotFound, "site: not found")

// ErrFinished is returned when an analysis would start on a report whose
// analysis finished already (another run did it).
var ErrFinished = fault.New(fault.Conflict, "report: the report's analysis already finished")

// ErrRunningLimit is returned when an analysis would start while its user
// has as many analyses running as allowed: it waits for one to finish.
var ErrRunningLimit = fault.New(fault.RateLimited, "report: as many of the user's analyses are running as allowed")

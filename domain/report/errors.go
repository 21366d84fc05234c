package report

import "github.com/pinsight/pinsight/domain/fault"

// ErrNotFound is returned for a report or project that does not exist or
// belongs to another user (the two are never told apart).
var ErrNotFound = fault.New(fault.NotFound, "site: not found")

package postal

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pinsight/pinsight/domain/fault"
)

// ErrNotFound is returned when a pincode, office, state, district or village
// does not exist.
var ErrNotFound = fault.New(fault.NotFound, "postal: not found")

// ErrNoData is returned when no directory has been loaded (a database the
// dataset was not imported into yet, or a store built empty).
var ErrNoData = fault.New(fault.Unavailable, "postal: no directory loaded yet")

// NotFoundError is an ErrNotFound with a message naming what was missing.
type NotFoundError struct{ What string }

func (e *NotFoundError) Error() string { return "postal: " + e.What + " not found" }

// Is makes errors.Is(err, ErrNotFound) true.
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// Kind implements fault.Kinder.
func (e *NotFoundError) Kind() fault.Kind { return fault.NotFound }

// ValidationError lists invalid inputs by field.
type ValidationError struct {
	Fields map[string][]string
}

// Invalid returns a ValidationError for one field.
func Invalid(field, msg string) *ValidationError {
	return &ValidationError{Fields: map[string][]string{field: {msg}}}
}

func (e *ValidationError) Error() string {
	keys := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + strings.Join(e.Fields[k], ", ")
	}
	return "postal: invalid " + strings.Join(parts, "; ")
}

// FieldErrors returns the messages by field, for transports.
func (e *ValidationError) FieldErrors() map[string][]string { return e.Fields }

// Kind implements fault.Kinder.
func (e *ValidationError) Kind() fault.Kind { return fault.Invalid }

// AmbiguousError reports a name or prefix matching several states or
// districts; Candidates names them (with their ids).
type AmbiguousError struct {
	Field      string
	Input      string
	Candidates []string
}

func (e *AmbiguousError) Error() string {
	return "postal: " + e.Field + " " + strconv.Quote(e.Input) + " is ambiguous: " + strings.Join(e.Candidates, "; ")
}

// FieldErrors lists the candidates under the field, for transports.
func (e *AmbiguousError) FieldErrors() map[string][]string {
	msgs := make([]string, 0, len(e.Candidates)+1)
	msgs = append(msgs, "matches several: be more specific or use an id")
	msgs = append(msgs, e.Candidates...)
	return map[string][]string{e.Field: msgs}
}

// Kind implements fault.Kinder.
func (e *AmbiguousError) Kind() fault.Kind { return fault.Invalid }

// TerminatedError is the not found of a PIN that existed in an earlier
// release and has no office in the loaded one.
type TerminatedError struct {
	Pincode     Pincode
	LastRelease Release // the last release that had it
}

func (e *TerminatedError) Error() string {
	return "postal: pincode " + string(e.Pincode) + " was terminated: the last release that had it is " + e.LastRelease.Name()
}

// Is makes errors.Is(err, ErrNotFound) true.
func (e *TerminatedError) Is(target error) bool { return target == ErrNotFound }

// Kind implements fault.Kinder.
func (e *TerminatedError) Kind() fault.Kind { return fault.NotFound }

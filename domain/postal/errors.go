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
// districts; Candidates lists them, ordered by Label.
type AmbiguousError struct {
	Field      string
	Input      string
	Candidates []Candidate
}

// Candidate is one of the states or districts an ambiguous reference
// matches.
type Candidate struct {
	ID    int    // the state's or district's id, which names it unambiguously
	Name  string // its name
	State string // a district's state; "" for a state
}

// Label is the candidate on one line: "28 Andhra Pradesh", or a
// district's "201 Aurangabad (Maharashtra)".
func (c Candidate) Label() string {
	l := strconv.Itoa(c.ID) + " " + c.Name
	if c.State != "" {
		l += " (" + c.State + ")"
	}
	return l
}

func (e *AmbiguousError) Error() string {
	labels := make([]string, len(e.Candidates))
	for i, c := range e.Candidates {
		labels[i] = c.Label()
	}
	return "postal: " + e.Field + " " + strconv.Quote(e.Input) + " is ambiguous: " + strings.Join(labels, "; ")
}

// FieldErrors says under the field that it matches several, for
// transports, which give the candidates themselves beside the errors.
func (e *AmbiguousError) FieldErrors() map[string][]string {
	return map[string][]string{e.Field: {"matches several: be more specific or use an id (see candidates)"}}
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

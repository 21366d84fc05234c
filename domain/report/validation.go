package report

import (
	"sort"
	"strings"

	"github.com/pinsight/pinsight/domain/fault"
)

// ValidationError lists invalid fields with their messages; transports
// answer it with 422.
type ValidationError struct {
	Fields map[string][]string
}

func (e *ValidationError) Error() string {
	names := make([]string, 0, len(e.Fields))
	for f := range e.Fields {
		names = append(names, f)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, f := range names {
		parts[i] = f + ": " + strings.Join(e.Fields[f], ", ")
	}
	return "site: invalid " + strings.Join(parts, "; ")
}

// FieldErrors returns the messages by field, for transports.
func (e *ValidationError) FieldErrors() map[string][]string { return e.Fields }

// Kind implements fault.Kinder.
func (e *ValidationError) Kind() fault.Kind { return fault.Invalid }

// Invalid returns a ValidationError for one field.
func Invalid(field, msg string) *ValidationError {
	return &ValidationError{Fields: map[string][]string{field: {msg}}}
}

// Problems collects the messages of several fields, so a validation
// reports every invalid field at once.
type Problems map[string][]string

// Add records msg against field.
func (p Problems) Add(field, msg string) { p[field] = append(p[field], msg) }

// AddErr records the field messages of err (a *ValidationError, or any
// fault.FieldErrorer); any other non-nil error is recorded against
// fallback.
func (p Problems) AddErr(fallback string, err error) {
	if err == nil {
		return
	}
	fields := fault.FieldErrors(err)
	if fields == nil {
		p.Add(fallback, fault.Message(err))
		return
	}
	for f, msgs := range fields {
		p[f] = append(p[f], msgs...)
	}
}

// Err returns the *ValidationError of the recorded messages, or nil when
// nothing was recorded.
func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	return &ValidationError{Fields: p}
}

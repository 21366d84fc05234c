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

// fieldErrors collects messages of several fields.
type fieldErrors map[string][]string

func (f fieldErrors) add(field, msg string) { f[field] = append(f[field], msg) }

// err returns nil when nothing was added.
func (f fieldErrors) err() error {
	if len(f) == 0 {
		return nil
	}
	return &ValidationError{Fields: f}
}

// Package fault classifies errors by kind, so that every transport maps
// them in one table instead of matching each package's sentinels and types.
//
// An error states its kind with a method Kind() Kind; a transport calls
// KindOf and Message, and asks the optional interfaces RetryAfterer and
// FieldErrorer for a retry delay and per-field messages. The package has no
// dependencies beyond the standard library.
package fault

import (
	"errors"
	"strings"
	"time"
)

// Kind is what went wrong, in terms any transport can map: an HTTP status,
// a gRPC code, an exit status.
type Kind string

// The kinds. The zero Kind is Internal.
const (
	// Internal: a fault of the program or of something it depends on that
	// the caller cannot fix; its text may hold anything and is not shown.
	Internal Kind = ""
	// Invalid: the input is wrong; FieldErrors, when present, says where.
	Invalid Kind = "invalid"
	// NotFound: what was asked for does not exist (or is not the caller's).
	NotFound Kind = "not_found"
	// Conflict: the request clashes with the current state (already
	// exists, still running).
	Conflict Kind = "conflict"
	// Unauthorized: the caller did not prove who they are.
	Unauthorized Kind = "unauthorized"
	// Forbidden: the caller is known but may not do this.
	Forbidden Kind = "forbidden"
	// RateLimited: the caller used up a quota of theirs; retry later.
	RateLimited Kind = "rate_limited"
	// Busy: the service is at capacity for everyone; retry shortly.
	Busy Kind = "busy"
	// Unavailable: something the service needs cannot answer now (a
	// database, a dataset not loaded); retry later.
	Unavailable Kind = "unavailable"
)

// Kinder is implemented by errors that state their kind.
type Kinder interface {
	error
	Kind() Kind
}

// FieldErrorer is implemented by errors that list invalid inputs by field.
// An error that implements it without stating a kind is Invalid, so
// packages that import nothing (such as digipin) classify their input
// errors by this method alone.
type FieldErrorer interface {
	error
	FieldErrors() map[string][]string
}

// RetryAfterer is implemented by errors that know when a retry may succeed.
type RetryAfterer interface {
	error
	RetryAfter() time.Duration
}

// KindOf returns the kind of the first error in err's chain that states
// one; else Invalid when an error of the chain lists field errors; else
// Internal (nil included).
func KindOf(err error) Kind {
	if k := carrier(err); k != nil {
		return k.Kind()
	}
	var fe FieldErrorer
	if errors.As(err, &fe) {
		return Invalid
	}
	return Internal
}

// Message is the text of err a client may read: the text of the error in
// the chain that states the kind (not of the errors wrapping it, which may
// hold internal detail), without the "package: " prefix of Go error
// strings. It is "" for an Internal error and for errors classified by
// their field errors only.
func Message(err error) string {
	k := carrier(err)
	if k == nil || k.Kind() == Internal {
		return ""
	}
	return trimPrefix(k.Error())
}

// RetryAfter is the delay the first error of err's chain that knows one
// asks for, and whether one does.
func RetryAfter(err error) (time.Duration, bool) {
	var r RetryAfterer
	if errors.As(err, &r) {
		return r.RetryAfter(), true
	}
	return 0, false
}

// FieldErrors are the field errors of the first error of err's chain that
// lists some (nil when none does).
func FieldErrors(err error) map[string][]string {
	var fe FieldErrorer
	if errors.As(err, &fe) {
		return fe.FieldErrors()
	}
	return nil
}

// carrier is the first error of err's chain that states its kind.
func carrier(err error) Kinder {
	var k Kinder
	if errors.As(err, &k) {
		return k
	}
	return nil
}

// trimPrefix drops a leading "package: " (one lower-case word of letters
// and digits, then a colon and a space) from an error text.
func trimPrefix(s string) string {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || i > 0 && s[i] >= '0' && s[i] <= '9') {
		i++
	}
	if i > 0 && strings.HasPrefix(s[i:], ": ") {
		return s[i+2:]
	}
	return s
}

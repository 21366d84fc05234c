package fault

import "time"

// New returns a sentinel error of kind k whose text is text (written as Go
// error strings are: "package: what happened"). Compare it with errors.Is;
// wrap it with %w to add context, which Message leaves out.
func New(k Kind, text string) error { return &sentinel{kind: k, text: text} }

// NewRetry is New for an error that says when a retry may succeed.
func NewRetry(k Kind, text string, retryAfter time.Duration) error {
	return &retrySentinel{sentinel: sentinel{kind: k, text: text}, after: retryAfter}
}

// sentinel is an error value of a kind.
type sentinel struct {
	kind Kind
	text string
}

func (e *sentinel) Error() string { return e.text }

// Kind implements Kinder.
func (e *sentinel) Kind() Kind { return e.kind }

// retrySentinel is a sentinel with a retry delay.
type retrySentinel struct {
	sentinel
	after time.Duration
}

// RetryAfter implements RetryAfterer.
func (e *retrySentinel) RetryAfter() time.Duration { return e.after }

package fault_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/fault"
)

// fieldOnly lists field errors without stating a kind, as digipin's errors do.
type fieldOnly struct{}

func (fieldOnly) Error() string                    { return "digipin: bad" }
func (fieldOnly) FieldErrors() map[string][]string { return map[string][]string{"digipin": {"bad"}} }

// stated states its kind and lists field errors.
type stated struct{}

func (stated) Error() string                    { return "x: taken" }
func (stated) Kind() fault.Kind                 { return fault.Conflict }
func (stated) FieldErrors() map[string][]string { return map[string][]string{"email": {"taken"}} }

func TestKindOf(t *testing.T) {
	errBusy := fault.NewRetry(fault.Busy, "app: every slot is busy: retry shortly", 5*time.Second)
	tests := []struct {
		name string
		err  error
		kind fault.Kind
		msg  string
	}{
		{"nil", nil, fault.Internal, ""},
		{"plain error", errors.New("boom: database said no"), fault.Internal, ""},
		{"sentinel", fault.New(fault.NotFound, "site: not found"), fault.NotFound, "not found"},
		{"wrapped sentinel keeps its own text", fmt.Errorf("sqlite: get report 7: %w", errBusy), fault.Busy, "every slot is busy: retry shortly"},
		{"sentinel wrapping a cause", fmt.Errorf("%w: dial tcp 10.0.0.1: refused", errBusy), fault.Busy, "every slot is busy: retry shortly"},
		{"no prefix", fault.New(fault.Unavailable, "the database is unavailable: try again shortly"), fault.Unavailable, "the database is unavailable: try again shortly"},
		{"field errors only", fieldOnly{}, fault.Invalid, ""},
		{"stated kind wins over field errors", stated{}, fault.Conflict, "taken"},
		{"internal sentinel hides its text", fault.New(fault.Internal, "ratelimit: secret"), fault.Internal, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fault.KindOf(tt.err); got != tt.kind {
				t.Errorf("KindOf(%v) = %q, want %q", tt.err, got, tt.kind)
			}
			if got := fault.Message(tt.err); got != tt.msg {
				t.Errorf("Message(%v) = %q, want %q", tt.err, got, tt.msg)
			}
		})
	}
}

func TestRetryAfterAndFieldErrors(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", fault.NewRetry(fault.RateLimited, "app: slow down", 3*time.Second))
	if d, ok := fault.RetryAfter(err); !ok || d != 3*time.Second {
		t.Errorf("RetryAfter = %v, %v; want 3s, true", d, ok)
	}
	if d, ok := fault.RetryAfter(fault.New(fault.Busy, "x")); ok || d != 0 {
		t.Errorf("RetryAfter of an error without one = %v, %v", d, ok)
	}
	if got := fault.FieldErrors(fmt.Errorf("w: %w", fieldOnly{})); len(got["digipin"]) != 1 {
		t.Errorf("FieldErrors = %v", got)
	}
	if got := fault.FieldErrors(errors.New("x")); got != nil {
		t.Errorf("FieldErrors of a plain error = %v, want nil", got)
	}
	if !errors.Is(fmt.Errorf("w: %w", err), err) {
		t.Error("a wrapped sentinel is not errors.Is itself")
	}
}

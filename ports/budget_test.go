package ports_test

import (
	"context"
	"testing"
	"time"

	"github.com/pinsight/pinsight/ports"
)

// TestStoreBudgetIsShared: the operations of one request share one
// timeout; without a request, each operation has its own.
func TestStoreBudgetIsShared(t *testing.T) {
	const timeout = 50 * time.Millisecond
	req := ports.WithStoreBudget(context.Background())

	op, done := ports.BoundStore(req, timeout)
	<-op.Done() // a stalled first operation uses the whole budget
	done()
	op, done = ports.BoundStore(req, timeout)
	if op.Err() == nil {
		t.Error("the second operation of a request whose budget is spent has time left")
	}
	done()

	for range 2 {
		op, done := ports.BoundStore(context.Background(), timeout)
		if op.Err() != nil {
			t.Error("an operation outside a request shares a budget")
		}
		<-op.Done()
		done()
	}
}

// TestStoreBudgetCountsOnlyOperations: time between a request's
// operations (an analysis) does not use its budget up.
func TestStoreBudgetCountsOnlyOperations(t *testing.T) {
	const timeout = 200 * time.Millisecond
	req := ports.WithStoreBudget(context.Background())
	_, done := ports.BoundStore(req, timeout)
	done()
	time.Sleep(timeout) // work outside the store
	op, done := ports.BoundStore(req, timeout)
	defer done()
	deadline, ok := op.Deadline()
	if !ok || time.Until(deadline) < timeout/2 {
		t.Errorf("after a quick operation and a pause the next one has %v left, want most of %v", time.Until(deadline), timeout)
	}
}

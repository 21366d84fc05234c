package ports

import (
	"context"
	"sync"
	"time"
)

// storeBudgetKey holds a request's *storeBudget in its context.
type storeBudgetKey struct{}

// storeBudget is the time a request's store operations have spent so far.
type storeBudget struct {
	mu    sync.Mutex
	spent time.Duration
}

// WithStoreBudget marks ctx as one request: the store operations made
// under it (BoundStore) share one deadline instead of one each, so a
// stalled database holds a request at most one timeout however many
// operations it makes. Only time spent in store operations counts: work
// between them (an analysis) does not use the budget up. Transports call
// it once per request; background work does not.
func WithStoreBudget(ctx context.Context) context.Context {
	return context.WithValue(ctx, storeBudgetKey{}, &storeBudget{})
}

// BoundStore gives one store operation under ctx its deadline: timeout,
// less what the request's earlier operations spent (WithStoreBudget; a
// request whose budget is spent gets a context that has already expired,
// which stores answer as ErrUnavailable). The returned cancel ends the
// operation: it records the time spent and releases the context.
func BoundStore(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	b, _ := ctx.Value(storeBudgetKey{}).(*storeBudget)
	if b == nil {
		return context.WithTimeout(ctx, timeout)
	}
	b.mu.Lock()
	left := timeout - b.spent
	b.mu.Unlock()
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, max(left, 0))
	return ctx, func() {
		cancel()
		b.mu.Lock()
		b.spent += time.Since(start)
		b.mu.Unlock()
	}
}

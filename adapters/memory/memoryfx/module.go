// Package memoryfx provides the in-memory stores of package memory to an fx
// graph.
package memoryfx

import (
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/ports"
)

// Module provides the in-memory account, report and review stores and rate
// limiter: the throwaway storage (memory:).
var Module = fx.Module("memory",
	fx.Provide(fx.Annotate(memory.NewAccountStore, fx.As(new(ports.AccountStore)))),
	fx.Provide(fx.Annotate(memory.NewReportStore, fx.As(new(ports.ReportStore)))),
	fx.Provide(fx.Annotate(memory.NewReviewStore, fx.As(new(ports.ReviewStore)))),
	RateLimiter,
)

// RateLimiter provides the in-memory rate limiter alone: quotas kept in
// the process, whatever the storage.
var RateLimiter = fx.Provide(fx.Annotate(memory.NewRateLimiter, fx.As(new(ports.RateLimiter))))

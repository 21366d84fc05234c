package memory

import (
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/ports"
)

// Module provides the in-memory stores: the throwaway storage (memory:).
var Module = fx.Module("memory",
	fx.Provide(fx.Annotate(NewAccountStore, fx.As(new(ports.AccountStore)))),
	fx.Provide(fx.Annotate(NewReportStore, fx.As(new(ports.ReportStore)))),
	fx.Provide(fx.Annotate(NewRateLimiter, fx.As(new(ports.RateLimiter)))),
)

package reports

import (
	"context"
	"errors"
	"time"

	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// admitter is implemented by analysers that keep a daily quota per user
// (*Analyser): work is charged to it when it is accepted.
type admitter interface {
	Admit(ctx context.Context, user int64, n int) error
	DailyLimit() ratelimit.Limit
}

// admit charges n analyses of userID to the user's daily quota as the work
// is accepted, when analyses are jobs (WithJobs), and returns ctx marked
// admitted: the analysis run in the request, and the jobs that run it later
// (retries, snoozes, the request's backstop), do not charge it again. So
// queued work per user is bounded when it is accepted, not left to snooze
// in the queue until the quota allows it. Without jobs nothing is queued:
// the analysis charges itself as it runs in its request.
//
// Rendered work (mode on or auto) is charged to the quota of renders first,
// so a refusal there takes nothing from the analyses' quota.
func (rs *Reports) admit(ctx context.Context, userID int64, n int, mode pagecheck.RenderMode) (context.Context, error) {
	if rs.jobs == nil {
		return ctx, nil
	}
	if err := rs.admitRenders(ctx, userID, n, mode); err != nil {
		return ctx, err
	}
	if a, ok := rs.analyser.(admitter); ok {
		if err := a.Admit(ctx, userID, n); err != nil {
			return ctx, err
		}
	}
	return admitted(ctx), nil
}

// dailyLimit is the analyser's daily quota per user (not enabled: none).
func (rs *Reports) dailyLimit() ratelimit.Limit {
	if a, ok := rs.analyser.(admitter); ok {
		return a.DailyLimit()
	}
	return ratelimit.Limit{}
}

// deferred reports whether an admitted analysis refused in its request
// only for now (the pool busy, the user's analyses at once, the site
// throttled) should be queued rather than fail: with jobs, admitted work is
// paid for, so its job runs it when the refusal passes.
func (rs *Reports) deferred(err error) bool {
	var wait interface{ RetryAfter() time.Duration }
	return rs.jobs != nil && fault.KindOf(err) != fault.Invalid && errors.As(err, &wait)
}

package reports

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/report"
)

// admittedKey marks a context whose analysis was admitted already: its
// daily quota was taken when the work was accepted (see Admit).
type admittedKey struct{}

// admitted returns ctx marked so that Analyse does not take the daily
// quota: the work was admitted (and its quota taken) when it was accepted.
func admitted(ctx context.Context) context.Context {
	return context.WithValue(ctx, admittedKey{}, true)
}

// takeDaily takes one analysis from the user's daily quota, unless ctx
// carries an admitted analysis. It is keyed on the user, not the API key,
// so new keys do not reset it.
func (a *Analyser) takeDaily(ctx context.Context, user int64) error {
	if ctx.Value(admittedKey{}) != nil {
		return nil
	}
	return a.Admit(ctx, user, 1)
}

// DailyLimit returns the quota of analyses one user may start a day (not
// enabled: no quota).
func (a *Analyser) DailyLimit() ratelimit.Limit {
	if a.limiter == nil {
		return ratelimit.Limit{}
	}
	return a.daily
}

// Admit takes n analyses at once (all or none) from the user's daily
// quota: work is charged when it is accepted (a request, a re-analysis, a
// batch), and the jobs that run it later (retries and snoozes included) are
// free. Denied, it is a daily *QuotaError saying how many of the n fit now
// and when all do. More than the whole quota can never fit: a
// *report.ValidationError on urls (only a batch asks for more than one). A
// failing limiter lets the work through (logged) rather than take the
// feature down.
func (a *Analyser) Admit(ctx context.Context, user int64, n int) error {
	_, err := a.takeDailyN(ctx, "analyses-user:", a.DailyLimit(), user, n, false)
	return err
}

// takeDailyN takes n from user's daily quota limit under key prefix
// (analyses, or rendered ones: rendered), all or none, as Admit says,
// answering when the charge is all back by itself, from now (zero: no
// charge).
func (a *Analyser) takeDailyN(ctx context.Context, prefix string, limit ratelimit.Limit, user int64, n int, rendered bool) (time.Duration, error) {
	if !limit.Enabled() {
		return 0, nil
	}
	what := "analyses"
	if rendered {
		what = "rendered analyses"
	}
	if n > limit.Requests {
		return 0, report.Invalid("urls", "holds "+strconv.Itoa(n)+" URLs, more than the "+strconv.Itoa(limit.Requests)+
			" "+what+" a day your quota allows: send at most "+strconv.Itoa(limit.Requests)+" at once")
	}
	d, err := a.limiter.TakeN(ctx, prefix+strconv.FormatInt(user, 10), limit, n)
	if err != nil {
		slog.WarnContext(ctx, "daily quota unavailable; admitting anyway", "quota", what, "user", user, "n", n, "err", err)
		return 0, nil
	}
	if !d.Allowed {
		return 0, &QuotaError{Daily: true, Rendered: rendered, Limit: limit.Requests, Wait: d.RetryAfter, Asked: n, Fit: d.Remaining}
	}
	return d.Reset, nil
}

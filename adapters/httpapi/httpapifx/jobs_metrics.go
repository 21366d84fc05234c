package httpapifx

import (
	"context"
	"time"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/ports"
)

// JobGauges exposes the queue of analyses on /metrics: jobs waiting
// (pinsight_jobs_queued), running (pinsight_jobs_running) and given up
// (pinsight_jobs_failed, as the queue retains them). It needs a ports.Jobs.
var JobGauges = fx.Invoke(jobGauges)

func jobGauges(m *middleware.Metrics, jobs ports.Jobs) {
	read := func(pick func(ports.JobStats) int) func() float64 {
		return func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			st, err := jobs.Stats(ctx)
			if err != nil {
				return -1 // unknown: the queue cannot be read (readiness says why)
			}
			return float64(pick(st))
		}
	}
	m.Gauge("pinsight_jobs_queued", "Queued analyses waiting to run (due, scheduled or retrying); -1 when the queue cannot be read.",
		read(func(s ports.JobStats) int { return s.Queued }))
	m.Gauge("pinsight_jobs_running", "Queued analyses running now, all processes together.",
		read(func(s ports.JobStats) int { return s.Running }))
	m.Gauge("pinsight_jobs_failed", "Queued analyses given up (failed or cancelled) that the queue still retains.",
		read(func(s ports.JobStats) int { return s.Failed }))
}

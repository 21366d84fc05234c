package httpapifx

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/app/appfx"
	"github.com/pinsight/pinsight/ports"
)

// JobGauges exposes the queue of analyses on /metrics: jobs waiting
// (pinsight_jobs_queued), running (pinsight_jobs_running) and given up
// (pinsight_jobs_failed, as the queue retains them), the same of webhook
// deliveries (pinsight_deliveries_*), and, for the runs of
// this process, how long each waited past its due time
// (pinsight_job_wait_seconds), how long it ran (pinsight_job_run_seconds)
// and how it ended (pinsight_job_runs_total by outcome). It needs a
// ports.Jobs.
var JobGauges = fx.Options(fx.Invoke(jobGauges), fx.Provide(jobObserver))

func jobGauges(m *middleware.Metrics, jobs ports.Jobs) {
	m.Registry().MustRegister(&queueCollector{jobs: jobs})
}

// The gauges of the queue, all read by one Stats call per scrape.
var (
	jobsQueuedDesc = prometheus.NewDesc("pinsight_jobs_queued",
		"Queued analyses waiting to run (due, scheduled or retrying); -1 when the queue cannot be read.", nil, nil)
	jobsRunningDesc = prometheus.NewDesc("pinsight_jobs_running",
		"Queued analyses running now, all processes together.", nil, nil)
	jobsFailedDesc = prometheus.NewDesc("pinsight_jobs_failed",
		"Queued analyses given up (failed or cancelled) that the queue still retains.", nil, nil)
	deliveriesQueuedDesc = prometheus.NewDesc("pinsight_deliveries_queued",
		"Webhook deliveries waiting to run (due, snoozed or retrying); -1 when the queue cannot be read.", nil, nil)
	deliveriesRunningDesc = prometheus.NewDesc("pinsight_deliveries_running",
		"Webhook deliveries being sent now, all processes together.", nil, nil)
	deliveriesFailedDesc = prometheus.NewDesc("pinsight_deliveries_failed",
		"Webhook delivery jobs given up that the queue still retains.", nil, nil)
)

// queueCollector reports the queue's counts, read once per scrape (one
// query of the queue's table, not one per gauge); -1 for each when the
// queue cannot be read (readiness says why).
type queueCollector struct{ jobs ports.Jobs }

// Describe implements prometheus.Collector.
func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- jobsQueuedDesc
	ch <- jobsRunningDesc
	ch <- jobsFailedDesc
	ch <- deliveriesQueuedDesc
	ch <- deliveriesRunningDesc
	ch <- deliveriesFailedDesc
}

// Collect implements prometheus.Collector.
func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	st, err := c.jobs.Stats(ctx)
	if err != nil {
		unknown := ports.JobCounts{Queued: -1, Running: -1, Failed: -1}
		st = ports.JobStats{JobCounts: unknown, Deliveries: unknown}
	}
	for desc, n := range map[*prometheus.Desc]int{
		jobsQueuedDesc: st.Queued, jobsRunningDesc: st.Running, jobsFailedDesc: st.Failed,
		deliveriesQueuedDesc: st.Deliveries.Queued, deliveriesRunningDesc: st.Deliveries.Running, deliveriesFailedDesc: st.Deliveries.Failed,
	} {
		ch <- prometheus.MustNewConstMetric(desc, prometheus.GaugeValue, float64(n))
	}
}

// jobObserver records the runs of queued analyses on the server's registry.
func jobObserver(m *middleware.Metrics) appfx.AnalysisObserver {
	wait := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "pinsight_job_wait_seconds",
		Help:    "Time a queued analysis waited past its due time before a worker took it.",
		Buckets: []float64{.01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600}})
	run := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "pinsight_job_run_seconds",
		Help:    "Time one run of a queued analysis took (fetch and checks).",
		Buckets: []float64{.05, .1, .25, .5, 1, 2, 5, 10, 15, 20, 30, 60}})
	runs := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "pinsight_job_runs_total",
		Help: "Runs of queued analyses by outcome: done, snoozed (a quota said later), retry, failed."}, []string{"outcome"})
	m.Registry().MustRegister(wait, run, runs)
	return func(_ ports.AnalysisJob, waited, ran time.Duration, err error) {
		wait.Observe(waited.Seconds())
		run.Observe(ran.Seconds())
		runs.WithLabelValues(jobOutcome(err)).Inc()
	}
}

// jobOutcome names what a worker's error asks of the queue.
func jobOutcome(err error) string {
	var snooze *ports.SnoozeError
	var retry *ports.RetryError
	switch {
	case err == nil:
		return "done"
	case errors.As(err, &snooze):
		return "snoozed"
	case errors.As(err, &retry):
		return "retry"
	}
	return "failed"
}

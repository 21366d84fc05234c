package httpapifx

import (
	"context"
	"errors"
	"maps"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/ports"
)

// TestJobObserver: each observed run lands in the wait and run histograms
// and is counted by the outcome its error asks of the queue.
func TestJobObserver(t *testing.T) {
	m := middleware.NewMetrics()
	observe := jobObserver(m)
	job := ports.AnalysisJob{ID: 1, ReportID: 1, UserID: 1, Attempt: 1}
	observe(job, 3*time.Second, 2*time.Second, nil)
	observe(job, 0, time.Second, &ports.SnoozeError{After: time.Minute, Err: errors.New("quota")})
	observe(job, 0, time.Second, &ports.RetryError{Err: errors.New("reset")})
	observe(job, 0, time.Second, errors.New("refused"))

	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*dto.MetricFamily{}
	for _, f := range families {
		byName[f.GetName()] = f
	}
	for _, name := range []string{"pinsight_job_wait_seconds", "pinsight_job_run_seconds"} {
		f := byName[name]
		if f == nil || f.GetMetric()[0].GetHistogram().GetSampleCount() != 4 {
			t.Fatalf("%s: %v, want 4 samples", name, f)
		}
	}
	if sum := byName["pinsight_job_wait_seconds"].GetMetric()[0].GetHistogram().GetSampleSum(); sum != 3 {
		t.Errorf("wait sum = %v s, want 3", sum)
	}
	runs := map[string]float64{}
	for _, mt := range byName["pinsight_job_runs_total"].GetMetric() {
		runs[mt.GetLabel()[0].GetValue()] = mt.GetCounter().GetValue()
	}
	for _, outcome := range []string{"done", "snoozed", "retry", "failed"} {
		if runs[outcome] != 1 {
			t.Errorf("runs by outcome = %v, want one of each", runs)
			break
		}
	}
}

// countingQueue answers Stats with fixed counts (or err), counting calls.
type countingQueue struct {
	ports.Jobs
	st    ports.JobStats
	err   error
	calls int
}

func (q *countingQueue) Stats(context.Context) (ports.JobStats, error) {
	q.calls++
	return q.st, q.err
}

// TestJobGauges: one scrape reads the queue once for its six gauges, and
// a queue that cannot be read shows -1 in each.
func TestJobGauges(t *testing.T) {
	for _, tc := range []struct {
		q    *countingQueue
		want map[string]float64
	}{
		{&countingQueue{st: ports.JobStats{JobCounts: ports.JobCounts{Queued: 4, Running: 2, Failed: 1}, Deliveries: ports.JobCounts{Queued: 57, Running: 3}}},
			map[string]float64{"pinsight_jobs_queued": 4, "pinsight_jobs_running": 2, "pinsight_jobs_failed": 1,
				"pinsight_deliveries_queued": 57, "pinsight_deliveries_running": 3, "pinsight_deliveries_failed": 0}},
		{&countingQueue{err: errors.New("down")},
			map[string]float64{"pinsight_jobs_queued": -1, "pinsight_jobs_running": -1, "pinsight_jobs_failed": -1,
				"pinsight_deliveries_queued": -1, "pinsight_deliveries_running": -1, "pinsight_deliveries_failed": -1}},
	} {
		m := middleware.NewMetrics()
		jobGauges(m, tc.q)
		families, err := m.Registry().Gather()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]float64{}
		for _, f := range families {
			if _, ok := tc.want[f.GetName()]; ok {
				got[f.GetName()] = f.GetMetric()[0].GetGauge().GetValue()
			}
		}
		if tc.q.calls != 1 || !maps.Equal(got, tc.want) {
			t.Errorf("scrape: %d Stats calls, gauges %v; want 1 call and %v", tc.q.calls, got, tc.want)
		}
	}
}

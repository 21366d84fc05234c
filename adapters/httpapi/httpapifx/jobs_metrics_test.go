package httpapifx

import (
	"errors"
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

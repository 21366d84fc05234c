//go:build unix

package httpapi_test

import (
	"syscall"
	"testing"
)

// reportCPU reports, once run is done, the process's CPU time (user and
// system, the collector's included) per iteration as cpu-ns/op: on a
// machine shared with other work it moves far less than ns/op, which
// counts the time spent waiting for a processor too.
func reportCPU(b *testing.B, run func()) {
	b.Helper()
	start := cpuNanos()
	run()
	if b.N > 0 {
		b.ReportMetric(float64(cpuNanos()-start)/float64(b.N), "cpu-ns/op")
	}
}

// cpuNanos is the CPU time the process has used so far.
func cpuNanos() int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}

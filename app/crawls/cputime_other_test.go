//go:build !unix

package crawls_test

// cpuNanos is 0 where getrusage is not: the CPU time is reported on unix only.
func cpuNanos() int64 { return 0 }

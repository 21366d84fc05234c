//go:build !unix

package main

// cpuNanos is 0 where getrusage is not: the CPU time is reported on unix only.
func cpuNanos() int64 { return 0 }

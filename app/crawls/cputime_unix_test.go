//go:build unix

package crawls_test

import "syscall"

// cpuNanos is the CPU time (user and system) the process has used so far:
// on a machine shared with other work it moves far less than the wall
// clock, which counts the time spent waiting for a processor too.
func cpuNanos() int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}

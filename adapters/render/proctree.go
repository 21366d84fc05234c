package render

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// descendants returns root and every process below it, read from /proc
// (empty when root is gone).
func descendants(root int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	alive := false
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, ok := parentOf(pid)
		if !ok {
			continue
		}
		if pid == root {
			alive = true
		}
		children[ppid] = append(children[ppid], pid)
	}
	if !alive {
		return nil
	}
	out := []int{root}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// parentOf reads the parent of pid from /proc/pid/stat.
func parentOf(pid int) (int, bool) {
	f, ok := statFields(pid)
	if !ok || len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// pfExiting is the kernel's PF_EXITING, the flag of a process on its way
// out (include/linux/sched.h).
const pfExiting = 0x4

// exiting reports whether pid is gone, a zombie, or on its way out: a
// crashed tab's renderer keeps its resident set while the kernel unmaps
// it, which is no longer the browser's to answer for.
func exiting(pid int) bool {
	f, ok := statFields(pid)
	if !ok || len(f) < 7 {
		return true
	}
	if f[0] == "Z" || f[0] == "X" {
		return true
	}
	flags, err := strconv.ParseUint(f[6], 10, 64)
	return err == nil && flags&pfExiting != 0
}

// statFields reads /proc/pid/stat's fields after the command name: state,
// ppid, pgrp, session, tty_nr, tpgid, flags, and on (proc(5)).
func statFields(pid int) ([]string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, false
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil, false
	}
	return strings.Fields(string(b[i+1:])), true
}

// processMemory is pid's memory in bytes: its proportional set size
// (shared pages split between the processes sharing them), or its
// resident set size when smaps_rollup cannot be read.
func processMemory(pid int) int64 {
	dir := "/proc/" + strconv.Itoa(pid)
	if b, err := os.ReadFile(dir + "/smaps_rollup"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "Pss:"); ok {
				if kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	return residentSet(pid)
}

// residentSet is pid's resident set size in bytes, read from its statm (0
// when it is gone).
func residentSet(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// using returns the processes whose command line holds the argument arg
// (the browser's --user-data-dir=..., which Chromium passes to every
// child): a pid reused by another program never matches.
func using(arg string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if hasArg(pid, arg) {
			out = append(out, pid)
		}
	}
	return out
}

// browserProcess is the browser's main process in the tree below root:
// the deepest holding marker and no --type= argument (Chromium's children
// all have one; a wrapper script above the browser holds its arguments
// too); root when none does.
func browserProcess(root int, marker string) int {
	pid := root
	for _, p := range descendants(root) { // parents before children
		if hasArg(p, marker) && !hasArgPrefix(p, "--type=") {
			pid = p
		}
	}
	return pid
}

// hasArgPrefix reports whether an argument of pid's command line starts
// with prefix.
func hasArgPrefix(pid int, prefix string) bool {
	return slices.ContainsFunc(args(pid), func(a string) bool { return strings.HasPrefix(a, prefix) })
}

// hasArg reports whether pid's command line holds arg.
func hasArg(pid int, arg string) bool {
	return slices.Contains(args(pid), arg)
}

// args is pid's command line (nil when it is gone).
func args(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

// killUsing sends SIGKILL to every process holding arg and to every
// process below one (a child of Chromium's zygote does not always repeat
// the browser's arguments), and returns how many it found.
func killUsing(arg string) int {
	n := 0
	for _, pid := range using(arg) {
		tree := descendants(pid)
		for i := len(tree) - 1; i >= 0; i-- {
			_ = syscall.Kill(tree[i], syscall.SIGKILL)
		}
		n += len(tree)
	}
	return n
}

// killAllUsing kills the processes holding arg until a few passes in a row
// find none (a child can fork as its parent dies), for at most limit.
func killAllUsing(arg string, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for quiet := 0; quiet < 3 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if killUsing(arg) == 0 {
			quiet++
		} else {
			quiet = 0
		}
	}
}

package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

// progress reports the advance of a long step of a command. On a terminal
// it redraws one line in place, at most every progressEvery, with the
// amount done, the rate and the time left; elsewhere (a log, a pipe) it
// prints only a summary line when the step ends.
type progress struct {
	w     io.Writer
	tty   bool
	what  string               // "reading files"
	unit  func(n int64) string // renders an amount
	now   func() time.Time     // the clock (tests set it)
	mu    sync.Mutex
	done  int64
	total int64
	start time.Time
	drawn time.Time
}

// progressEvery is how often a terminal line is redrawn at most.
const progressEvery = 200 * time.Millisecond

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

func newProgress(w io.Writer, tty bool, what string, unit func(int64) string, total int64) *progress {
	return &progress{w: w, tty: tty, what: what, unit: unit, now: time.Now, total: total, start: time.Now()}
}

// set records the amount done so far (and the total, when it is known
// only now: 0 keeps the previous one).
func (p *progress) set(done, total int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = done
	if total > 0 {
		p.total = total
	}
	if !p.tty {
		return
	}
	if now := p.now(); now.Sub(p.drawn) >= progressEvery {
		p.drawn = now
		fmt.Fprintf(p.w, "\r\033[K%s", p.line(now))
	}
}

// add records n more done.
func (p *progress) add(n int64) {
	p.mu.Lock()
	done := p.done + n
	p.mu.Unlock()
	p.set(done, 0)
}

// line is the progress line at now: done of total, rate and time left.
func (p *progress) line(now time.Time) string {
	elapsed := now.Sub(p.start).Seconds()
	s := p.what + ": " + p.unit(p.done)
	if p.total > 0 {
		s += fmt.Sprintf(" of %s (%.0f%%)", p.unit(p.total), 100*float64(p.done)/float64(p.total))
	}
	if elapsed > 0 && p.done > 0 {
		rate := float64(p.done) / elapsed
		s += ", " + p.unit(int64(rate)) + "/s"
		if p.total > p.done {
			s += ", ETA " + (time.Duration(float64(p.total-p.done) / rate * float64(time.Second))).Round(time.Second).String()
		}
	}
	return s
}

// finish prints the summary line: what was done, in how long, how fast.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	d := now.Sub(p.start)
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
	rate := ""
	if s := d.Seconds(); s > 0 {
		rate = ", " + p.unit(int64(float64(p.done)/s)) + "/s"
	}
	fmt.Fprintf(p.w, "%s: %s in %s%s\n", p.what, p.unit(p.done), d.Round(time.Millisecond), rate)
}

// rowsUnit renders a count of rows.
func rowsUnit(n int64) string { return fmt.Sprintf("%d rows", n) }

// bytesUnit renders a count of bytes in kB or MB.
func bytesUnit(n int64) string {
	if n < 1e6 {
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// countingFS opens the files of fsys (OS paths when nil) through a
// counter of the bytes read, reported to p; its total is the files' sizes.
type countingFS struct {
	fsys fs.FS
	p    *progress
}

func (c countingFS) Open(name string) (fs.File, error) {
	var f fs.File
	var err error
	if c.fsys == nil {
		f, err = os.Open(name)
	} else {
		f, err = c.fsys.Open(name)
	}
	if err != nil {
		return nil, err
	}
	return &countingFile{File: f, p: c.p}, nil
}

// fileSizes sums the sizes of the named files (those it can stat).
func fileSizes(fsys fs.FS, names ...string) int64 {
	var total int64
	for _, n := range names {
		if n == "" {
			continue
		}
		var fi fs.FileInfo
		var err error
		if fsys == nil {
			fi, err = os.Stat(n)
		} else {
			fi, err = fs.Stat(fsys, n)
		}
		if err == nil {
			total += fi.Size()
		}
	}
	return total
}

type countingFile struct {
	fs.File
	p *progress
}

func (c *countingFile) Read(b []byte) (int, error) {
	n, err := c.File.Read(b)
	c.p.add(int64(n))
	return n, err
}

package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgress: on a terminal the line is redrawn in place with the
// amount, rate and time left, at most every progressEvery; elsewhere only
// the summary line is printed.
func TestProgress(t *testing.T) {
	for _, tty := range []bool{true, false} {
		var out bytes.Buffer
		clock := time.Unix(1e9, 0)
		p := newProgress(&out, tty, "copying rows", rowsUnit, 0)
		p.now, p.start = func() time.Time { return clock }, clock
		for i := 1; i <= 10; i++ {
			clock = clock.Add(100 * time.Millisecond)
			p.set(int64(i*1000), 10000)
		}
		p.finish()
		got := out.String()
		lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		summary := lines[len(lines)-1]
		if !strings.HasSuffix(summary, "copying rows: 10000 rows in 1s, 10000 rows/s") {
			t.Errorf("tty=%v: summary %q", tty, summary)
		}
		redraws := strings.Count(got, "\r\033[K")
		if tty {
			// 5 redraws in 1 s (every 200 ms), plus the clearing before the summary.
			if redraws != 6 || !strings.Contains(got, "copying rows: 3000 rows of 10000 rows (30%), 10000 rows/s, ETA 1s") {
				t.Errorf("terminal output (%d redraws): %q", redraws, got)
			}
		} else if redraws != 0 || len(lines) != 1 {
			t.Errorf("non-terminal output: %q", got)
		}
	}
}

// TestImportDryRunProgress: import reports the bytes it read, in one
// summary line when its status output is not a terminal.
func TestImportDryRunProgress(t *testing.T) {
	var out, status bytes.Buffer
	if err := runImport(t.Context(), &out, &status, false, postgresConfig(databaseConfig{}), dataConfig{Dir: "../../adapters/indiapost/testdata"}, true); err != nil {
		t.Fatal(err)
	}
	if s := status.String(); !strings.HasPrefix(s, "reading files: ") || strings.Count(s, "\n") != 1 || !strings.Contains(s, " kB in ") {
		t.Errorf("status = %q, want one line with the bytes read", s)
	}
}

package main

import (
	"io"
	"log/slog"
	"runtime"
	"runtime/debug"
	"testing"
)

func TestGCPercent(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{1 << 20, maxGCPercent}, // a test's heap: the bound applies
		{105 << 20, 243},        // the directory: 256 MB over 105 MB
		{512 << 20, 100},        // never below Go's default
	} {
		if got := gcPercent(c.live); got != c.want {
			t.Errorf("gcPercent(%d MB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}

func TestTuneGC(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	defer debug.SetGCPercent(debug.SetGCPercent(100))

	t.Setenv("GOGC", "")
	debug.SetGCPercent(100)
	runtime.GC() // tuneGC reads the live heap of the last collection
	tuneGC(log)
	// The live heap depends on the tests that ran before: whatever it
	// is, the percentage set is one gcPercent can give, and never Go's
	// default unless the heap is over gcHeadroom.
	got := debug.SetGCPercent(100)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if got < 100 || got > maxGCPercent || (got == 100 && ms.HeapAlloc < gcHeadroom/2) {
		t.Errorf("GOGC unset: collector at %d %% with %d MB in use", got, ms.HeapAlloc>>20)
	}

	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	tuneGC(log)
	if got := debug.SetGCPercent(100); got != 50 {
		t.Errorf("GOGC=50: collector at %d %%, want 50 (the environment decides)", got)
	}
}

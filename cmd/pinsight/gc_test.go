package main

import (
	"io"
	"log/slog"
	"runtime"
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	defer debug.SetGCPercent(debug.SetGCPercent(100))

	t.Setenv("GOGC", "")
	debug.SetGCPercent(100)
	runtime.GC() // tuneGC reads the live heap of the last collection
	tuneGC(log)
	// A test's live heap is a few MB: 256 MB of headroom is far beyond
	// 1000 % of it, so the bound applies.
	if got := debug.SetGCPercent(100); got != maxGCPercent {
		t.Errorf("GOGC unset: collector at %d %%, want %d", got, maxGCPercent)
	}

	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	tuneGC(log)
	if got := debug.SetGCPercent(100); got != 50 {
		t.Errorf("GOGC=50: collector at %d %%, want 50 (the environment decides)", got)
	}
}

package main

import (
	"log/slog"
	"os"
	"runtime/debug"
	"runtime/metrics"
)

// gcHeadroom is how much the heap may grow over what is live (the postal
// directory, most of it) before the collector runs again, when GOGC is not
// set. Every cycle marks the whole live directory, so with Go's default
// (GOGC=100: the heap may double) a server of a 110 MB directory spends
// several microseconds per request marking it again; a fixed headroom makes
// that cost shrink as the directory does. The price is memory: the heap
// peaks near live + gcHeadroom.
const gcHeadroom = 256 << 20

// maxGCPercent bounds the percentage tuneGC sets (a tiny live heap, in
// tests, would otherwise get an absurd one).
const maxGCPercent = 1000

// tuneGC sets the collector's target percentage so that the heap may grow by
// gcHeadroom over the live heap between cycles (at least Go's default of
// 100), unless GOGC is set in the environment, which then decides. Call it
// just after a collection (debug.FreeOSMemory), when the live heap is what
// will stay.
func tuneGC(log *slog.Logger) {
	if os.Getenv("GOGC") != "" {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[0].Value.Uint64() == 0 {
		return
	}
	live := s[0].Value.Uint64()
	pct := int(min(max(100, gcHeadroom*100/live), maxGCPercent))
	debug.SetGCPercent(pct)
	log.Debug("collector tuned", "live_heap_mb", live>>20, "gogc", pct)
}

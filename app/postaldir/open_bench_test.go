package postaldir_test

import (
	"context"
	"runtime"
	"runtime/metrics"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/app/postaldir"
)

// BenchmarkOpen opens the directory over the embedded snapshot: decoding
// its derived dataset and indexing it. Besides ns/op it
// reports peak-heap-MB, the most heap held by objects (live or not yet
// swept: runtime/metrics /memory/classes/heap/objects:bytes) seen by a
// sampler every 200 µs during an Open, at most over the iterations, and
// kept-heap-MB, the heap still live after Open and a GC (the directory),
// and cpu-ms/op, the process's CPU time (user and system, every goroutine
// and the GC) per Open: on a shared machine it varies less than ns/op.
func BenchmarkOpen(b *testing.B) {
	benchmarkOpen(b, postaldir.Open)
}

// BenchmarkOpenFiles opens the directory over the embedded official files
// (OpenFS): reading, cleaning and indexing them, what Open did before it
// decoded the derived dataset; the same figures as BenchmarkOpen.
func BenchmarkOpenFiles(b *testing.B) {
	benchmarkOpen(b, func(ctx context.Context) (*postaldir.Postal, error) { return postaldir.OpenFS(ctx, snapshot.FS()) })
}

// benchmarkOpen measures open as BenchmarkOpen says.
func benchmarkOpen(b *testing.B, open func(context.Context) (*postaldir.Postal, error)) {
	ctx := context.Background()
	var peak, kept uint64
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		stop := sampleHeap(&peak)
		cpu -= cpuTime()
		b.StartTimer()
		dir, err := open(ctx)
		b.StopTimer()
		cpu += cpuTime()
		stop()
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		kept = max(kept, heapObjects())
		runtime.KeepAlive(dir)
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(kept)/(1<<20), "kept-heap-MB")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}

// cpuTime is the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// sampleHeap records the largest heapObjects into peak until stop is
// called.
func sampleHeap(peak *uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			*peak = max(*peak, heapObjects())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); wg.Wait(); *peak = max(*peak, heapObjects()) }
}

// heapObjects is the heap held by objects, live or not yet swept.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

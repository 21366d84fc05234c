package render

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/pinsight/pinsight/ports"
)

// BenchmarkRender renders a small loopback page (a stylesheet, an image,
// a script) on a warm browser, one render at a time; it reports the
// median, as ms/page.
func BenchmarkRender(b *testing.B) {
	fx := newFixtures(b)
	r := newTestRenderer(b, Config{}, fx.host())
	ctx := context.Background()
	if _, err := r.Render(ctx, fx.url("/bench.html"), ports.RenderOptions{}, nil); err != nil { // warm up
		b.Fatal(err)
	}
	var took []time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		got, err := r.Render(ctx, fx.url("/bench.html"), ports.RenderOptions{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if !got.Settled {
			b.Fatal("the benchmark page did not settle")
		}
		took = append(took, time.Since(start))
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "ms/page")
}

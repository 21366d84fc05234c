package indiapost_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
)

// BenchmarkLoad reads and cleans the embedded snapshot (the whole official
// dataset).
func BenchmarkLoad(b *testing.B) {
	files := snapshot.Files()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := indiapost.Load(files); err != nil {
			b.Fatal(err)
		}
	}
}

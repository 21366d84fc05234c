package indiapost_test

import (
	"os"
	"testing"

	"github.com/pinsight/pinsight/adapters/indiapost"
)

// sharedData is the real dataset folder beside the checkout.
const sharedData = "../../../shared/data"

func sharedFiles(tb testing.TB) indiapost.Files {
	tb.Helper()
	if _, err := os.Stat(sharedData); err != nil {
		tb.Skipf("shared dataset absent (%s): skipping", sharedData)
	}
	return indiapost.FindFiles(sharedData, indiapost.Files{})
}

func BenchmarkLoad(b *testing.B) {
	files := sharedFiles(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := indiapost.Load(files); err != nil {
			b.Fatal(err)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkLogBuffer writes access-log sized lines (300 bytes) from
// parallel goroutines, as the request path does, to a real file: what each
// line costs the request that logs it.
func BenchmarkLogBuffer(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "log"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	buf := newLogBuffer(f, logFlushEvery)
	defer buf.Close()
	line := []byte(strings.Repeat("x", 299) + "\n")
	b.SetBytes(int64(len(line)))
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := buf.Write(line); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

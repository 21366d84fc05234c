package bulk_test

import (
	"context"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/pinsight/pinsight/app/bulk"
	"github.com/pinsight/pinsight/app/postaldir"
	"github.com/pinsight/pinsight/domain/postal"
)

var (
	snapshotOnce sync.Once
	snapshotDir  *postaldir.Postal
	snapshotPins []string // every pincode with an office
	snapshotErr  error
)

// snapshot opens the embedded directory once, with its pincodes.
func snapshot(b *testing.B) (*postaldir.Postal, []string) {
	b.Helper()
	snapshotOnce.Do(func() {
		ctx := context.Background()
		snapshotDir, snapshotErr = postaldir.Open(ctx)
		if snapshotErr != nil {
			return
		}
		for p := 110000; p < 860000; p++ {
			pin := strconv.Itoa(p)
			if postal.ValidPincode(pin) {
				if _, _, err := snapshotDir.Lookup(ctx, pin); err == nil {
					snapshotPins = append(snapshotPins, pin)
				}
			}
		}
	})
	if snapshotErr != nil {
		b.Fatal(snapshotErr)
	}
	return snapshotDir, snapshotPins
}

// benchFile answers a file of rows built by line, reporting rows/s; its
// B/op and allocs/op at 10k and 100k rows show the memory per row, which
// does not depend on the row count.
func benchFile(b *testing.B, rows int, f bulk.Format, header string, line func(i int) string,
	answer func(in io.Reader) (bulk.Summary, error)) {
	var sb strings.Builder
	sb.WriteString(header)
	for i := range rows {
		sb.WriteString(line(i))
		sb.WriteByte('\n')
	}
	file := sb.String()
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		sum, err := answer(strings.NewReader(file))
		if err != nil || sum.Rows != rows {
			b.Fatalf("%+v %v", sum, err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

var sizes = []struct {
	name string
	rows int
}{{"10k", 10_000}, {"100k", 100_000}}

// BenchmarkPincodes answers files of existing pincodes (the snapshot's,
// in order, repeated) to io.Discard.
func BenchmarkPincodes(b *testing.B) {
	dir, pins := snapshot(b)
	ctx := context.Background()
	for _, format := range []struct {
		name   string
		f      bulk.Format
		header string
		line   func(pin string) string
	}{
		{"csv", bulk.CSV, "pincode\n", func(pin string) string { return pin }},
		{"jsonl", bulk.JSONLines, "", func(pin string) string { return `{"pincode":"` + pin + `"}` }},
	} {
		for _, size := range sizes {
			b.Run(format.name+"/"+size.name, func(b *testing.B) {
				benchFile(b, size.rows, format.f, format.header, func(i int) string { return format.line(pins[i%len(pins)]) },
					func(in io.Reader) (bulk.Summary, error) {
						return dir.BulkPincodes(ctx, in, io.Discard, format.f, bulk.Options{})
					})
			})
		}
	}
}

// BenchmarkDigipin encodes files of points across India to io.Discard.
func BenchmarkDigipin(b *testing.B) {
	ctx := context.Background()
	point := func(i int) (string, string) {
		lat := 8 + float64(i%29000)/1000
		lon := 68 + float64(i%29000)/1000
		return strconv.FormatFloat(lat, 'f', 6, 64), strconv.FormatFloat(lon, 'f', 6, 64)
	}
	for _, size := range sizes {
		b.Run("csv/"+size.name, func(b *testing.B) {
			benchFile(b, size.rows, bulk.CSV, "latitude,longitude\n", func(i int) string { lat, lon := point(i); return lat + "," + lon },
				func(in io.Reader) (bulk.Summary, error) {
					return postaldir.BulkDigipin(ctx, in, io.Discard, bulk.CSV, bulk.Options{})
				})
		})
		b.Run("jsonl/"+size.name, func(b *testing.B) {
			benchFile(b, size.rows, bulk.JSONLines, "", func(i int) string {
				lat, lon := point(i)
				return `{"latitude":` + lat + `,"longitude":` + lon + `}`
			}, func(in io.Reader) (bulk.Summary, error) {
				return postaldir.BulkDigipin(ctx, in, io.Discard, bulk.JSONLines, bulk.Options{})
			})
		})
	}
}

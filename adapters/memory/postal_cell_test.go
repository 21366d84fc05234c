package memory_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
)

// cellSample returns cells of every level around offices of the real
// directory (and a few points at random), for the test and the benchmark.
func cellSample(located []postal.PostOffice, n int) []digipin.Cell {
	rng := rand.New(rand.NewPCG(27, 5))
	cells := make([]digipin.Cell, 0, n)
	for i := range n {
		lat, lon := 6.5+rng.Float64()*31, 68+rng.Float64()*29.5
		if i%4 != 0 {
			o := located[rng.IntN(len(located))]
			lat, lon = o.Location.Latitude, o.Location.Longitude
		}
		c, err := digipin.EncodeCell(lat, lon, 1+i%digipin.Levels)
		if err == nil {
			cells = append(cells, c)
		}
	}
	return cells
}

// TestCellOfficesMatchesScan compares CellOffices over the real directory
// with a scan of every located office through digipin.Cell.Contains, at
// every level: same offices, same total.
func TestCellOfficesMatchesScan(t *testing.T) {
	store := snapshotDirectory(t)
	ctx := context.Background()
	located, err := store.LocatedOffices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := 200
	if testing.Short() {
		n = 40
	}
	for _, cell := range cellSample(located, n) {
		var want []int64
		for _, o := range located {
			if cell.Contains(o.Location.Latitude, o.Location.Longitude) {
				want = append(want, o.ID)
			}
		}
		got, total, err := store.CellOffices(ctx, cell, paging.Page{Number: 1, PerPage: len(located)})
		ids := make([]int64, len(got))
		for i, o := range got {
			ids[i] = o.ID
			if i > 0 && officeOrder(got[i-1], o) >= 0 {
				t.Fatalf("CellOffices(%s): %+v before %+v, not by pincode, name key, id", cell, got[i-1], o)
			}
		}
		if p2, _, err := store.CellOffices(ctx, cell, paging.Page{Number: 3, PerPage: 7}); err != nil || !slices.Equal(p2, got[min(14, len(got)):min(21, len(got))]) {
			t.Fatalf("CellOffices(%s, page 3 of 7) is not the list's items 14 to 20: %v", cell, err)
		}
		slices.Sort(ids)
		if err != nil || total != len(want) || !slices.Equal(ids, want) {
			t.Fatalf("CellOffices(%s) = %d offices (total %d), %v; the scan finds %d", cell, len(got), total, err, len(want))
		}
	}
}

// officeOrder compares offices as DistrictOffices orders them.
func officeOrder(a, b postal.PostOffice) int {
	return cmp.Or(cmp.Compare(a.Pincode, b.Pincode), cmp.Compare(postal.OfficeKey(a.Name), postal.OfficeKey(b.Name)), cmp.Compare(a.ID, b.ID))
}

// BenchmarkCellOffices pages the first 10 offices of cells of each level
// over the whole directory; "scan" is the yardstick: the same cells
// answered by testing every located office.
func BenchmarkCellOffices(b *testing.B) {
	store := snapshotDirectory(b)
	ctx := context.Background()
	located, err := store.LocatedOffices(ctx)
	if err != nil {
		b.Fatal(err)
	}
	sample := cellSample(located, 2000)
	page := paging.Page{Number: 1, PerPage: 10}
	for _, level := range []int{1, 3, 5, 6, 8, 10} {
		var cells []digipin.Cell
		for _, c := range sample {
			if c.Level() == level {
				cells = append(cells, c)
			}
		}
		b.Run(fmt.Sprintf("level=%d", level), func(b *testing.B) {
			b.ReportAllocs()
			found := 0
			for i := 0; b.Loop(); i++ {
				_, total, err := store.CellOffices(ctx, cells[i%len(cells)], page)
				if err != nil {
					b.Fatal(err)
				}
				found += total
			}
			b.ReportMetric(float64(found)/float64(b.N), "offices/op")
		})
	}
	b.Run("scan", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			cell, n := sample[i%len(sample)], 0
			for _, o := range located {
				if cell.Contains(o.Location.Latitude, o.Location.Longitude) {
					n++
				}
			}
			sinkCount = n
		}
	})
}

var sinkCount int

package memory

import (
	"context"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/domain/postal"
)

// autocompleteMix is a realistic mix of typed queries, 3 to 20
// characters: prefixes as typed, whole names, districts, PIN prefixes,
// typos (substitutions, transpositions, missing and extra letters),
// spacing and suffixes.
var autocompleteMix = []string{
	"pun", "pune", "puen", "mumb", "mumbia", "mumbai cen", "connaught", "conaught pl", "bangal", "bnagal",
	"bengaluru", "bengaluur", "chennai", "chenai", "kolkata", "kolkatta", "hyderabad", "hyderbad", "ram nagar",
	"ramnagar", "rampur", "rmapur", "bagalur s.o", "thiruvananthapuram", "tiruvanantapuram", "110", "1100",
	"560001", "4110", "ahmedabad", "ahmedbad", "jaipur", "jiapur", "lucknow", "lukcnow", "patna g", "gandhi maidan",
	"sector 15", "new delhi gpo", "vijayawada", "vijaywada", "madurai", "maduria", "nagpur", "nagpru", "indore",
	"bhopal", "bhopla", "kanpur nagar", "visakhapatnam", "vishakapatnam", "guwahati", "gauhati", "shillong",
	"srinagar", "sri nagar", "agra", "varanasi", "varansi", "coimbatore", "coimbatroe", "raj", "krishnagiri",
	"krishnagri", "ernakulam", "ernaklam", "mysore", "mysuru", "amritsar", "amritsir", "dehradun", "dehra dun",
}

func loadSnapshotDataset(b *testing.B) *postal.Dataset {
	b.Helper()
	res, err := indiapost.Load(snapshot.Files())
	if err != nil {
		b.Fatal(err)
	}
	return res.Dataset
}

// BenchmarkAutocomplete runs the query mix over the whole directory and
// reports the latency percentiles of single queries.
func BenchmarkAutocomplete(b *testing.B) {
	store := NewPostalStore(loadSnapshotDataset(b))
	queries := make([]postal.AutocompleteQuery, len(autocompleteMix))
	for i, q := range autocompleteMix {
		aq, err := postal.ParseAutocomplete(q, 0, nil)
		if err != nil {
			b.Fatal(err)
		}
		queries[i] = aq
	}
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if _, err := store.Autocomplete(ctx, queries[i%len(queries)]); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	}
}

// BenchmarkAutocompleteIndex builds the autocomplete index of the whole
// directory; its allocations are the index's cost in memory.
func BenchmarkAutocompleteIndex(b *testing.B) {
	ds := loadSnapshotDataset(b)
	ix := buildIndex(ds)
	runtime.GC()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		newAutocompleteIndex(ds, ix.officeKeys, ix.byDistrict, ix.pins, ix.byPin)
	}
}

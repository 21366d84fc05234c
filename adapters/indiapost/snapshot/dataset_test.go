package snapshot_test

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/domain/postal"

	"github.com/klauspost/compress/zstd"
)

var update = flag.Bool("update", false, "rewrite the derived dataset from the official files")

// TestDatasetIsDerivedFromTheFiles cleans the official files again and
// checks that the derived dataset decodes to the very dataset they give.
// With -update (go generate) it rewrites the derived file instead.
func TestDatasetIsDerivedFromTheFiles(t *testing.T) {
	res, err := indiapost.Load(snapshot.Files())
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		zw, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("dataset.bin.zst", zw.EncodeAll(postal.EncodeDataset(res.Dataset), nil), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	ds, err := snapshot.Dataset()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ds, res.Dataset) {
		t.Fatal("dataset.bin.zst is not the dataset of the official files: run go generate ./adapters/indiapost/snapshot")
	}
}

func ExampleDataset() {
	ds, err := snapshot.Dataset()
	if err != nil {
		panic(err)
	}
	fmt.Println(ds.Source.Kind, ds.Source.Release, len(ds.Offices) > 150000)
	// Output: embedded 2025-10-03 true
}

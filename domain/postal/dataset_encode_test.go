package postal_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/pinsight/pinsight/domain/postal"
)

// smallDataset is a dataset with every field set, nil and empty slices and
// maps, an office without a location and two sharing a string.
func smallDataset() *postal.Dataset {
	return &postal.Dataset{
		Offices: []postal.PostOffice{
			{ID: 1, Pincode: "110001", Name: "Connaught Place S.O", OfficeType: "PO", Delivery: "Delivery", Circle: "Delhi",
				Region: "", Division: "New Delhi Central", District: "New Delhi", State: "Delhi", DistrictID: 77, StateID: 7,
				Location: &postal.Location{Latitude: 28.6315, Longitude: 77.2167}, Quality: postal.LocationQuality("ok")},
			{ID: 9, Pincode: "110001", Name: "Janpath", OfficeType: "BO", Delivery: "Non Delivery", Circle: "Delhi",
				District: "", State: "Delhi", DistrictID: -3, StateID: 7},
		},
		States:        []postal.State{{ID: 7, Name: "Delhi"}},
		Districts:     []postal.District{{ID: 77, Name: "New Delhi", AltName: "NEW DELHI", StateID: 7}},
		Villages:      []postal.Village{},
		VillageStates: nil,
		HasLGD:        true,
		Report: postal.CleaningReport{OfficeRows: 3, Offices: 2, DuplicateRows: 1, Pincodes: 1,
			Locations: map[string]int{"ok": 1, "missing": 1}, Qualities: map[postal.LocationQuality]int{},
			VillageInvalid: 4},
		Source: postal.Source{Kind: postal.SourceEmbedded, Release: "2025-10-03",
			Files: []postal.SourceFile{{Role: "directory", Name: "a.csv.gz", Date: "2025-10-03", Rows: 3, SHA256: "ab"}}},
	}
}

func TestDecodeDatasetGivesBackTheEncodedDataset(t *testing.T) {
	ds := smallDataset()
	got, err := postal.DecodeDataset(postal.EncodeDataset(ds))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, ds) {
		t.Fatalf("decoded %+v\nwant %+v", got, ds)
	}
	empty, err := postal.DecodeDataset(postal.EncodeDataset(&postal.Dataset{}))
	if err != nil || !reflect.DeepEqual(empty, &postal.Dataset{}) {
		t.Fatalf("empty dataset decoded to %+v, %v", empty, err)
	}
}

func TestDecodeDatasetRejectsOtherBytes(t *testing.T) {
	b := postal.EncodeDataset(smallDataset())
	for name, bad := range map[string][]byte{
		"empty":      nil,
		"other":      []byte("pincode,officename\n"),
		"truncated":  b[:len(b)-5],
		"extended":   append(append([]byte{}, b...), 0),
		"header":     b[:30],
		"bad string": append(append([]byte{}, b[:len(b)-1]...), 0xff),
	} {
		if ds, err := postal.DecodeDataset(bad); !errors.Is(err, postal.ErrDatasetEncoding) || ds != nil {
			t.Errorf("%s: got %v, %v; want ErrDatasetEncoding", name, ds, err)
		}
	}
}

// TestDatasetEncodingKnowsEveryField fails when a field is added to a type
// the encoding writes field by field, so that it is not dropped silently.
func TestDatasetEncodingKnowsEveryField(t *testing.T) {
	for _, c := range []struct {
		v      any
		fields int
	}{
		{postal.Dataset{}, 9}, {postal.PostOffice{}, 15}, {postal.Location{}, 2}, {postal.State{}, 2},
		{postal.District{}, 4}, {postal.Village{}, 8}, {postal.Source{}, 3}, {postal.SourceFile{}, 5},
	} {
		if n := reflect.TypeOf(c.v).NumField(); n != c.fields {
			t.Errorf("%T has %d fields, the dataset encoding knows %d: encode the new ones (EncodeDataset, DecodeDataset)", c.v, n, c.fields)
		}
	}
	report := reflect.TypeOf(postal.CleaningReport{})
	for i := range report.NumField() {
		f := report.Field(i)
		if k := f.Type.Kind(); k != reflect.Int && f.Name != "Locations" && f.Name != "Qualities" {
			t.Errorf("CleaningReport.%s is a %s: the dataset encoding writes only its ints and two maps", f.Name, k)
		}
	}
}

func ExampleEncodeDataset() {
	ds := &postal.Dataset{Offices: []postal.PostOffice{{ID: 1, Pincode: "110001", Name: "Connaught Place S.O", OfficeType: "PO"}}}
	back, err := postal.DecodeDataset(postal.EncodeDataset(ds))
	if err != nil {
		panic(err)
	}
	fmt.Println(back.Offices[0].Pincode, back.Offices[0].Name)
	// Output: 110001 Connaught Place S.O
}

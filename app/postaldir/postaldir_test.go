package postaldir_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/app/postaldir"
	"github.com/pinsight/pinsight/geo"
)

const header = "circlename,regionname,divisionname,officename,pincode,officetype,delivery,district,statename,latitude,longitude\n"

func TestOpenDir(t *testing.T) {
	dir := t.TempDir()
	row := "Bihar Circle,Patna HQ,Patna,Patna G.P.O.,800001,HO,Delivery,PATNA,BIHAR,25.6100,85.1400\n"
	if err := os.WriteFile(filepath.Join(dir, "all_india_pincode_directory.csv"), []byte(header+row), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	d, err := postaldir.OpenDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	info, err := d.Info(ctx)
	if err != nil || info.Offices != 1 || info.Source.Kind != "files" {
		t.Errorf("Info = %+v, %v; want one office read from files", info, err)
	}
	near, err := d.Geocoder.Nearest(ctx, geo.Point{Lat: 25.61, Lon: 85.14}, 1)
	if err != nil || len(near.Offices) != 1 || near.Offices[0].Office.Pincode != "800001" {
		t.Errorf("Geocoder.Nearest = %+v, %v; want the office of the same files", near, err)
	}
	if _, err := postaldir.OpenDir(ctx, t.TempDir()); !errors.Is(err, indiapost.ErrNoDirectory) {
		t.Errorf("OpenDir(an empty folder) err = %v, want indiapost.ErrNoDirectory", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := postaldir.OpenDir(cancelled, dir); !errors.Is(err, context.Canceled) {
		t.Errorf("OpenDir(cancelled) err = %v, want context.Canceled", err)
	}
}

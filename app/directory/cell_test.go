package directory_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
)

// TestCellOffices: a prefix in any accepted form pages the offices in its
// cell, an empty cell is an empty list, a malformed code is a
// *digipin.SyntaxError and a negative page is invalid.
func TestCellOffices(t *testing.T) {
	dir, ctx := patna(t), context.Background()
	first, _ := digipin.Encode(25.6, 85.1) // Office 00
	prefix := first[:6]                    // "XXX-XX": a level-5 cell, about 3.9 km
	cell, list, err := dir.CellOffices(ctx, " "+prefix+" ", paging.Page{PerPage: 3})
	if err != nil || cell.Level() != 5 || cell.String() != prefix || list.Page != (paging.Page{Number: 1, PerPage: 3}) {
		t.Fatalf("CellOffices(%q) = %v, page %+v, %v; want the level-5 cell %s, page 1 of 3", prefix, cell, list.Page, err, prefix)
	}
	if list.Total == 0 || list.Total == 15 || len(list.Items) != min(3, list.Total) || list.Items[0].Name != "Office 00 B.O" {
		t.Errorf("CellOffices(%q) = %d items of %d; want Office 00 first of some but not all 15", prefix, len(list.Items), list.Total)
	}
	for _, o := range list.Items {
		if !cell.Contains(o.Location.Latitude, o.Location.Longitude) {
			t.Errorf("CellOffices(%q): %s at %+v is outside the cell", prefix, o.Name, *o.Location)
		}
	}
	if _, all, err := dir.CellOffices(ctx, first[:1], paging.Page{PerPage: 100}); err != nil || all.Total != 15 {
		t.Errorf("CellOffices(%q) total = %d, %v; want all 15", first[:1], all.Total, err)
	}
	if _, empty, err := dir.CellOffices(ctx, "FFF", paging.Page{}); err != nil || empty.Total != 0 || len(empty.Items) != 0 {
		t.Errorf("CellOffices(FFF) = %+v, %v; want an empty list", empty, err)
	}
	for _, bad := range []string{"", "39A", "39J-49L-L8T4F"} {
		if _, _, err := dir.CellOffices(ctx, bad, paging.Page{}); !errors.Is(err, digipin.ErrInvalidCode) {
			t.Errorf("CellOffices(%q) err = %v, want digipin.ErrInvalidCode", bad, err)
		}
	}
	var ve *postal.ValidationError
	if _, _, err := dir.CellOffices(ctx, prefix, paging.Page{Number: -1}); !errors.As(err, &ve) {
		t.Errorf("CellOffices(page -1) err = %v, want a *postal.ValidationError", err)
	}
}

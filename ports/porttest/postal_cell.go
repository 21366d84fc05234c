package porttest

import (
	"testing"

	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/paging"
)

// cellOffices checks CellOffices on cells of every size: a level-1 cell
// across four states, prefixes around Patna, full codes (one office, two
// at the same point), a cell with no office, and paging.
func (c *postalCase) cellOffices(t *testing.T) {
	tests := []struct {
		code          string
		page, perPage int
		want          []int64
		total         int
	}{
		{"2", 1, 100, []int64{8, 9, 3, 1, 2, 15, 4}, 7}, // by pincode, then name key, then id
		{"2", 2, 3, []int64{1, 2, 15}, 7},
		{"2", 10, 5, nil, 7}, // beyond the last page
		{"235", 1, 10, []int64{3, 1, 2, 15}, 4},
		{"235-M6", 1, 10, []int64{3, 1}, 2},
		{"235-PPF-J", 1, 10, []int64{2, 15}, 2},
		{"235-PPF-J9", 1, 10, []int64{15}, 1},
		{"235-M65-K249", 1, 10, []int64{1}, 1},      // Patna GPO's own code
		{"379-T9T-9T9T", 1, 10, []int64{11, 12}, 2}, // two offices at one point
		{"3", 1, 10, []int64{10, 11, 12}, 3},
		{"39", 1, 10, nil, 0}, // Delhi's cell: no office in this dataset
		{"F", 1, 10, nil, 0},
	}
	for _, tt := range tests {
		cell, err := digipin.ParseCell(tt.code)
		if err != nil {
			t.Fatal(err)
		}
		got, total, err := c.s.CellOffices(bg, cell, paging.Page{Number: tt.page, PerPage: tt.perPage})
		if err != nil || total != tt.total {
			t.Errorf("CellOffices(%s, page %d) total = %d, %v; want %d", tt.code, tt.page, total, err, tt.total)
		}
		c.sameOffices(t, "CellOffices("+tt.code+")", got, tt.want)
	}
	// Every located office lies in the cell of its location at every level.
	for _, o := range c.ds.Offices {
		if o.Location == nil {
			continue
		}
		for level := 1; level <= digipin.Levels; level++ {
			cell, _ := digipin.EncodeCell(o.Location.Latitude, o.Location.Longitude, level)
			got, _, err := c.s.CellOffices(bg, cell, paging.Page{Number: 1, PerPage: 100})
			found := false
			for _, g := range got {
				found = found || g.ID == o.ID
			}
			if err != nil || !found {
				t.Errorf("CellOffices(%s) = ids %v, %v; want office %d among them", cell, ids(got), err, o.ID)
			}
		}
	}
}

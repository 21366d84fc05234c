package tests

import (
	"fmt"

	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
)

// cells compares CellOffices on the cells of sampled offices at every
// level, on the cells either side of offices lying exactly on a grid line
// (where the encoder's rounding decides), on cells with no office, with
// paging.
func (e *equivalence) cells(ds *postal.Dataset) {
	var cells []digipin.Cell
	onLine := 0
	for i, o := range ds.Offices {
		l := o.Location
		if l == nil {
			continue
		}
		if i%1201 == 0 {
			for _, level := range []int{1 + (i/1201)%10, 6, 10} {
				c, err := digipin.EncodeCell(l.Latitude, l.Longitude, level)
				if err == nil {
					cells = append(cells, c)
				}
			}
		}
		for level := 2; level <= 8 && onLine < 40; level++ {
			c, err := digipin.EncodeCell(l.Latitude, l.Longitude, level)
			if err != nil {
				break
			}
			if b := c.Bounds(); l.Latitude == b.MinLat || l.Longitude == b.MinLon {
				cells = append(append(cells, c), c.Neighbours()...)
				onLine++
				break
			}
		}
	}
	for _, code := range []string{"F", "8", "L", "T", "FFF-FFF-FFFF", "39J-49L-L8T4", "4P3"} {
		c, _ := digipin.ParseCell(code)
		cells = append(cells, c)
	}
	e.t.Logf("CellOffices: %d cells, %d around offices on a grid line", len(cells), onLine)
	for i, c := range cells {
		pages := []paging.Page{{Number: 1, PerPage: 10}, {Number: 2, PerPage: 7}}
		if i%5 == 0 {
			pages = append(pages, paging.Page{Number: 1000, PerPage: 100})
		}
		for _, page := range pages {
			m, mt, err1 := e.mem.CellOffices(ctx, c, page)
			p, pt, err2 := e.pg.CellOffices(ctx, c, page)
			e.same(fmt.Sprintf("CellOffices(%s, %v)", c, page), ans(m, mt, err1), ans(p, pt, err2))
		}
	}
}

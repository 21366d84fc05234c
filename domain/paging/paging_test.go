package paging_test

import (
	"testing"

	"github.com/pinsight/pinsight/domain/paging"
)

func TestBoundsAndLastPage(t *testing.T) {
	tests := []struct {
		page     paging.Page
		total    int
		from, to int
		lastPage int
		comment  string
	}{
		{paging.Page{Number: 1, PerPage: 10}, 25, 0, 10, 3, "first page"},
		{paging.Page{Number: 3, PerPage: 10}, 25, 20, 25, 3, "short last page"},
		{paging.Page{Number: 4, PerPage: 10}, 25, 25, 25, 3, "beyond the last page: empty"},
		{paging.Page{Number: 3, PerPage: 10}, 30, 20, 30, 3, "exact fit"},
		{paging.Page{Number: 1, PerPage: 10}, 0, 0, 0, 1, "empty list: last page 1"},
		{paging.Page{Number: 2, PerPage: 10}, 0, 0, 0, 1, "empty list, page 2"},
		{paging.Page{Number: 1, PerPage: 100}, 1, 0, 1, 1, "one item"},
		{paging.Page{}, 7, 0, 7, 1, "the zero page: the first, of 10 items"},
		{paging.Page{}, 25, 0, 10, 3, "the zero page of a longer list"},
		{paging.Page{Number: 2}, 25, 10, 20, 3, "page 2 of the default size"},
		{paging.Page{PerPage: 5}, 25, 0, 5, 5, "the first page of 5"},
		{paging.Page{Number: 1, PerPage: 500}, 25, 0, 25, 1, "any size"},
		{paging.Page{Number: -1, PerPage: 10}, 25, 25, 25, 3, "a negative page: empty"},
		{paging.Page{Number: 1, PerPage: -1}, 25, 25, 25, 1, "a negative size: empty"},
		{paging.Page{Number: 1 << 62, PerPage: 100}, 25, 25, 25, 1, "far beyond the end: empty, no overflow"},
	}
	for _, tt := range tests {
		from, to := tt.page.Bounds(tt.total)
		if from != tt.from || to != tt.to || tt.page.LastPage(tt.total) != tt.lastPage {
			t.Errorf("%s: %+v of %d = [%d:%d], last %d; want [%d:%d], last %d",
				tt.comment, tt.page, tt.total, from, to, tt.page.LastPage(tt.total), tt.from, tt.to, tt.lastPage)
		}
	}
}

func TestOffset(t *testing.T) {
	p := paging.Page{Number: 3, PerPage: 10}
	if p.Offset() != 20 || (paging.Page{Number: 1 << 62, PerPage: 100}).Offset() < 0 || (paging.Page{}).Offset() != 0 || (paging.Page{Number: 2}).Offset() != 10 {
		t.Errorf("Offset = %d", p.Offset())
	}
	for total, want := range map[int]int{0: 1, 1: 1, 10: 1, 11: 2, 100: 10} {
		if got := p.LastPage(total); got != want {
			t.Errorf("LastPage(%d) = %d, want %d", total, got, want)
		}
	}
	if got := (paging.Page{}).WithDefaults(); got != (paging.Page{Number: 1, PerPage: paging.DefaultPerPage}) {
		t.Errorf("the zero page with defaults = %+v", got)
	}
}

// FuzzPage checks that any page has sane slice bounds for any list size.
func FuzzPage(f *testing.F) {
	f.Add(1, 10, 25)
	f.Add(0, 0, 7)
	f.Add(1<<62, 100, 1000)
	f.Add(-3, -1, 5)
	f.Fuzz(func(t *testing.T, number, perPage, total int) {
		if total < 0 {
			total = -(total + 1)
		}
		p := paging.Page{Number: number, PerPage: perPage}
		from, to := p.Bounds(total)
		if from < 0 || from > to || to > total || to-from > max(p.WithDefaults().PerPage, 0) {
			t.Fatalf("%+v.Bounds(%d) = %d, %d", p, total, from, to)
		}
		if last := p.LastPage(total); last < 1 {
			t.Fatalf("%+v: last page %d of %d items", p, last, total)
		}
		if p.Offset() < 0 {
			t.Fatalf("%+v: offset %d", p, p.Offset())
		}
	})
}

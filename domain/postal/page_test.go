package postal_test

import (
	"errors"
	"testing"

	"github.com/pinsight/pinsight/domain/postal"
)

func TestNewPage(t *testing.T) {
	tests := []struct {
		number, perPage int
		want            postal.Page
		badFields       []string
	}{
		{0, 0, postal.Page{Number: 1, PerPage: postal.DefaultPerPage}, nil},
		{1, 1, postal.Page{Number: 1, PerPage: 1}, nil},
		{3, 100, postal.Page{Number: 3, PerPage: 100}, nil},
		{1, 101, postal.Page{}, []string{"per_page"}},
		{1, -1, postal.Page{}, []string{"per_page"}},
		{-1, 10, postal.Page{}, []string{"page"}},
		{-1, 1000, postal.Page{}, []string{"page", "per_page"}},
	}
	for _, tt := range tests {
		got, err := postal.NewPage(tt.number, tt.perPage)
		if got != tt.want {
			t.Errorf("NewPage(%d, %d) = %+v, want %+v", tt.number, tt.perPage, got, tt.want)
		}
		var ve *postal.ValidationError
		switch {
		case tt.badFields == nil && err != nil:
			t.Errorf("NewPage(%d, %d) error %v, want none", tt.number, tt.perPage, err)
		case tt.badFields != nil && !errors.As(err, &ve):
			t.Errorf("NewPage(%d, %d) error %v, want a ValidationError", tt.number, tt.perPage, err)
		case tt.badFields != nil && len(ve.Fields) != len(tt.badFields):
			t.Errorf("NewPage(%d, %d) fields %v, want %v", tt.number, tt.perPage, ve.Fields, tt.badFields)
		case tt.badFields != nil:
			for _, f := range tt.badFields {
				if len(ve.Fields[f]) == 0 {
					t.Errorf("NewPage(%d, %d) fields %v, want %q", tt.number, tt.perPage, ve.Fields, f)
				}
			}
		}
	}
}

func TestPageBoundsAndLastPage(t *testing.T) {
	tests := []struct {
		page     postal.Page
		total    int
		from, to int
		lastPage int
		comment  string
	}{
		{postal.Page{Number: 1, PerPage: 10}, 25, 0, 10, 3, "first page"},
		{postal.Page{Number: 3, PerPage: 10}, 25, 20, 25, 3, "short last page"},
		{postal.Page{Number: 4, PerPage: 10}, 25, 25, 25, 3, "beyond the last page: empty"},
		{postal.Page{Number: 3, PerPage: 10}, 30, 20, 30, 3, "exact fit"},
		{postal.Page{Number: 1, PerPage: 10}, 0, 0, 0, 1, "empty list: last page 1"},
		{postal.Page{Number: 2, PerPage: 10}, 0, 0, 0, 1, "empty list, page 2"},
		{postal.Page{Number: 1, PerPage: 100}, 1, 0, 1, 1, "one item"},
	}
	for _, tt := range tests {
		from, to := tt.page.Bounds(tt.total)
		if from != tt.from || to != tt.to || tt.page.LastPage(tt.total) != tt.lastPage {
			t.Errorf("%s: %+v of %d = [%d:%d], last %d; want [%d:%d], last %d",
				tt.comment, tt.page, tt.total, from, to, tt.page.LastPage(tt.total), tt.from, tt.to, tt.lastPage)
		}
	}
}

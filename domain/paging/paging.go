// Package paging selects one page of a list, for every list of the
// directory and of the site analysis: one type, one meaning of its zero
// value (the first page of DefaultPerPage items), and no overflow however
// large the page number.
package paging

import "math"

// DefaultPerPage is the page size of a Page that gives none.
const DefaultPerPage = 10

// Page selects one page of a list: Number from 1, PerPage items. A zero
// field takes its default (page 1, DefaultPerPage items); the zero Page is
// the first page. Negative fields are the caller's mistake: the use cases
// refuse them, and the methods here treat them as an empty page.
type Page struct {
	Number  int
	PerPage int
}

// WithDefaults returns p with its zero fields set to the defaults.
func (p Page) WithDefaults() Page {
	if p.Number == 0 {
		p.Number = 1
	}
	if p.PerPage == 0 {
		p.PerPage = DefaultPerPage
	}
	return p
}

// Offset is the number of items before the page (saturating at
// math.MaxInt32 for absurd page numbers, never negative).
func (p Page) Offset() int {
	p = p.WithDefaults()
	if p.Number <= 1 || p.PerPage <= 0 {
		return 0
	}
	if p.Number-1 > math.MaxInt32/p.PerPage {
		return math.MaxInt32
	}
	return (p.Number - 1) * p.PerPage
}

// Bounds returns the slice bounds of the page in a list of total items
// (empty beyond the end, however large the page number: no overflow).
func (p Page) Bounds(total int) (from, to int) {
	p = p.WithDefaults()
	skip := p.Number - 1
	if p.PerPage < 1 || skip < 0 || skip > total/p.PerPage {
		return total, total
	}
	from = skip * p.PerPage
	return from, from + min(p.PerPage, total-from)
}

// LastPage is the number of the last page of total items (1 when empty).
func (p Page) LastPage(total int) int {
	p = p.WithDefaults()
	if total <= 0 || p.PerPage <= 0 {
		return 1
	}
	return (total + p.PerPage - 1) / p.PerPage
}

// List is one page of a list with the number of items of the whole list
// and the page it is.
type List[T any] struct {
	Items []T
	Total int
	Page  Page
}

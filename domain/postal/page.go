package postal

import "strconv"

// Pagination bounds of the postal lists.
const (
	DefaultPerPage = 10
	MaxPerPage     = 100
)

// Page selects a page of a list: Number from 1, PerPage items.
type Page struct {
	Number  int
	PerPage int
}

// NewPage validates a page request; zero values take the defaults.
func NewPage(number, perPage int) (Page, error) {
	p := Page{Number: number, PerPage: perPage}
	if p.Number == 0 {
		p.Number = 1
	}
	if p.PerPage == 0 {
		p.PerPage = DefaultPerPage
	}
	err := &ValidationError{Fields: map[string][]string{}}
	if p.Number < 1 {
		err.Fields["page"] = []string{"must be 1 or more"}
	}
	if p.PerPage < 1 || p.PerPage > MaxPerPage {
		err.Fields["per_page"] = []string{"must be from 1 to " + strconv.Itoa(MaxPerPage)}
	}
	if len(err.Fields) > 0 {
		return Page{}, err
	}
	return p, nil
}

// Bounds returns the slice bounds of the page in a list of total items
// (empty beyond the end, however large the page number: no overflow).
func (p Page) Bounds(total int) (from, to int) {
	skip := p.Number - 1
	if p.PerPage < 1 || skip < 0 || skip > total/p.PerPage {
		return total, total
	}
	from = skip * p.PerPage
	return from, from + min(p.PerPage, total-from)
}

// LastPage is the number of the last page of total items (1 when empty).
func (p Page) LastPage(total int) int {
	if total == 0 || p.PerPage == 0 {
		return 1
	}
	return (total + p.PerPage - 1) / p.PerPage
}

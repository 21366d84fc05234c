package report

import (
	"cmp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
)

// perPageChoices are the page sizes lists accept; the first is the default.
var perPageChoices = []int{10, 25, 50, 100}

// ReportSort is a sort key of the report list.
type ReportSort string

// Report sort keys. Result sorts by score; every key breaks ties by id.
const (
	SortReportsByID          ReportSort = "id"
	SortReportsByGeneratedAt ReportSort = "generated_at"
	SortReportsByURL         ReportSort = "url"
	SortReportsByResult      ReportSort = "result"
)

// ProjectSort is a sort key of the project list.
type ProjectSort string

// Project sort keys; created_at breaks ties by name.
const (
	SortProjectsByCreatedAt ProjectSort = "created_at"
	SortProjectsByName      ProjectSort = "project"
)

// ReportParams are the report list parameters as sent; zero values take
// the defaults (search_by url, sort_by id, sort desc, per_page 10, page 1).
type ReportParams struct {
	Search, SearchBy, Project, Result, SortBy, Sort string
	Status                                          string // "" any; else pending, running, generated or failed
	PerPage, Page                                   int
}

// ReportQuery is a validated report list query.
type ReportQuery struct {
	Search      string           // in URLKey form; "" matches every report
	Project     string           // normalised project name; "" for any
	Result      pagecheck.Rating // "" for any
	Status      Status           // "" for any
	SortBy      ReportSort
	Desc        bool
	paging.Page // PerPage one of perPageChoices; beyond the last page the list is empty
}

// NewReportQuery validates p, reporting every invalid field at once.
func NewReportQuery(p ReportParams) (ReportQuery, error) {
	errs := Problems{}
	q := ReportQuery{Search: URLKey(p.Search), Project: NormalizeProject(p.Project)}
	CheckText("search", p.Search, errs)
	CheckText("project", p.Project, errs)
	if by := cmp.Or(p.SearchBy, "url"); by != "url" {
		errs.Add("search_by", "must be url")
	}
	if p.Result != "" {
		r, ok := pagecheck.ParseRating(p.Result)
		if !ok {
			errs.Add("result", "must be good, decent or bad")
		}
		q.Result = r
	}
	if p.Status != "" {
		st, ok := parseStatus(p.Status)
		if !ok {
			errs.Add("status", "must be pending, running, generated or failed")
		}
		q.Status = st
	}
	switch s := ReportSort(cmp.Or(p.SortBy, "id")); s {
	case SortReportsByID, SortReportsByGeneratedAt, SortReportsByURL, SortReportsByResult:
		q.SortBy = s
	default:
		errs.Add("sort_by", "must be id, generated_at, url or result")
	}
	q.Desc = ParseDirection(p.Sort, errs)
	q.Page = ParsePage(p.PerPage, p.Page, errs)
	return q, errs.Err()
}

// ProjectParams are the project list parameters as sent; zero values take
// the defaults (search_by project, sort_by created_at, sort desc,
// per_page 10, page 1).
type ProjectParams struct {
	Search, SearchBy, SortBy, Sort string
	PerPage, Page                  int
}

// ProjectQuery is a validated project list query.
type ProjectQuery struct {
	Search      string // lower-cased; "" matches every project
	SortBy      ProjectSort
	Desc        bool
	paging.Page // PerPage one of perPageChoices; beyond the last page the list is empty
}

// NewProjectQuery validates p, reporting every invalid field at once.
func NewProjectQuery(p ProjectParams) (ProjectQuery, error) {
	errs := Problems{}
	q := ProjectQuery{Search: strings.ToLower(strings.TrimSpace(p.Search))}
	CheckText("search", p.Search, errs)
	if by := cmp.Or(p.SearchBy, "project"); by != "project" {
		errs.Add("search_by", "must be project")
	}
	switch s := ProjectSort(cmp.Or(p.SortBy, "created_at")); s {
	case SortProjectsByCreatedAt, SortProjectsByName:
		q.SortBy = s
	default:
		errs.Add("sort_by", "must be created_at or project")
	}
	q.Desc = ParseDirection(p.Sort, errs)
	q.Page = ParsePage(p.PerPage, p.Page, errs)
	return q, errs.Err()
}

// IsText reports whether s is valid UTF-8 without NUL characters: what a
// stored name or URL can be (PostgreSQL text cannot hold NUL), so anything
// else matches nothing.
func IsText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// CheckText records an error on field when the filter s is not text
// (IsText).
func CheckText(field, s string, errs Problems) {
	if !IsText(s) {
		errs.Add(field, "must be UTF-8 text without NUL characters")
	}
}

// ParseDirection reads a sort direction, asc or desc (the default),
// recording an error on "sort" for anything else.
func ParseDirection(s string, errs Problems) (desc bool) {
	switch s {
	case "", "desc":
		return true
	case "asc":
		return false
	}
	errs.Add("sort", "must be asc or desc")
	return true
}

// ParsePage reads the per_page and page parameters of a list (zero takes
// the default: page 1 of perPageChoices[0] items), recording an error on
// each that is out of range.
func ParsePage(perPage, page int, errs Problems) paging.Page {
	p := paging.Page{Number: cmp.Or(page, 1), PerPage: cmp.Or(perPage, perPageChoices[0])}
	valid := false
	for _, n := range perPageChoices {
		valid = valid || n == p.PerPage
	}
	if !valid {
		choices := make([]string, len(perPageChoices))
		for i, n := range perPageChoices {
			choices[i] = strconv.Itoa(n)
		}
		errs.Add("per_page", "must be one of "+strings.Join(choices, ", "))
	}
	if p.Number < 1 {
		errs.Add("page", "must be at least 1")
	}
	return p
}

// Matches reports whether r passes the query's filters.
func (q ReportQuery) Matches(r Report) bool {
	return (q.Search == "" || strings.Contains(URLKey(r.URL), q.Search)) &&
		(q.Project == "" || r.Project == q.Project) &&
		(q.Result == "" || r.Rating == q.Result) &&
		(q.Status == "" || StatusOrGenerated(r.Status) == q.Status)
}

// Compare orders a before b (negative), after (positive), in the query's
// sort order; ties are broken by id in the same direction.
func (q ReportQuery) Compare(a, b Report) int {
	var c int
	switch q.SortBy {
	case SortReportsByGeneratedAt:
		c = a.GeneratedAt.Compare(b.GeneratedAt)
	case SortReportsByURL:
		c = strings.Compare(a.URL, b.URL)
	case SortReportsByResult:
		c = cmp.Compare(a.Score, b.Score)
	}
	c = cmp.Or(c, cmp.Compare(a.ID, b.ID))
	if q.Desc {
		return -c
	}
	return c
}

// Matches reports whether p passes the query's search.
func (q ProjectQuery) Matches(p Project) bool {
	return q.Search == "" || strings.Contains(p.Name, q.Search)
}

// Compare orders projects in the query's sort order; ties are broken by
// name in the same direction.
func (q ProjectQuery) Compare(a, b Project) int {
	c := 0
	if q.SortBy == SortProjectsByCreatedAt {
		c = a.CreatedAt.Compare(b.CreatedAt)
	}
	c = cmp.Or(c, strings.Compare(a.Name, b.Name))
	if q.Desc {
		return -c
	}
	return c
}

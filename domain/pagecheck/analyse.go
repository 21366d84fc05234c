package pagecheck

import "github.com/pinsight/pinsight/domain/webpage"

// Analysis is the outcome of analysing one fetched page.
type Analysis struct {
	URL     string // the final URL, after redirects
	Results Results
	Score   int
	Rating  Rating
	Status  int // the HTTP status the page answered with
}

// checker runs one check over an indexed page.
type checker func(p *page) Check

// checkers lists every check, in report order within each category.
var checkers = concat(seoCheckers, performanceCheckers, securityCheckers, miscCheckers)

// Analyse runs every check over f and scores the results with w.
func Analyse(f *webpage.Fetched, w Weights) Analysis {
	p := newPage(f)
	res := Results{}
	for _, run := range checkers {
		c := run(p)
		res[c.Category] = append(res[c.Category], c)
	}
	score := res.Score(w)
	return Analysis{URL: f.FinalURL(), Results: res, Score: score, Rating: RatingFor(score), Status: f.Page.Status}
}

// CheckInfo describes one check the analyser runs, for documentation.
type CheckInfo struct {
	ID         string
	Title      string
	Category   Category
	Importance Importance
}

// Catalogue lists every check in report order (category by category).
func Catalogue() []CheckInfo {
	empty := newPage(&webpage.Fetched{})
	var out []CheckInfo
	for _, cat := range Categories {
		for _, run := range checkers {
			if c := run(empty); c.Category == cat {
				out = append(out, CheckInfo{c.ID, c.Title, c.Category, c.Importance})
			}
		}
	}
	return out
}

func concat(lists ...[]checker) []checker {
	var out []checker
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// definition is what a check is, apart from its outcome.
type definition struct {
	id, title  string
	category   Category
	importance Importance
}

// pass is a passed check, its value and message bounded.
func (d definition) pass(value any, msg string) Check {
	return bounded(Check{ID: d.id, Title: d.title, Category: d.category, Importance: d.importance, Passed: true, Value: value, Message: msg})
}

// fail is a failed check with its error codes and the advice for them,
// its value and message bounded.
func (d definition) fail(value any, msg string, codes ...string) Check {
	return bounded(Check{ID: d.id, Title: d.title, Category: d.category, Importance: d.importance, Value: value, Errors: codes, Message: msg,
		Advice: adviceFor(d.id, codes)})
}

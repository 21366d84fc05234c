package pagecheck

import (
	"sync"

	"github.com/pinsight/pinsight/domain/webpage"
)

// Analysis is the outcome of analysing one fetched page.
type Analysis struct {
	URL     string // the final URL, after redirects
	Results Results
	Score   int
	Rating  Rating
	Status  int // the HTTP status the page answered with
	// Rendering is what a rendered analysis (AnalyseRendered) found
	// besides the checks; nil for an analysis of the raw HTML.
	Rendering *Rendering `json:"rendering,omitempty"`
}

// checker runs one check over an indexed page.
type checker func(p *page) Check

// checkers lists every check, in report order within each category.
var checkers = concat(seoCheckers, performanceCheckers, securityCheckers, miscCheckers)

// errorPageCap is the highest score of a page that did not answer a
// success status (a 404 or 500 page, say): it rates bad whatever else it
// passes, since what it serves is an error, not the page asked for.
const errorPageCap = decentFrom - 1

// Analyse runs every check over f and scores the results with w; a page
// that answered other than 2xx scores errorPageCap at most (it rates bad).
func Analyse(f *webpage.Fetched, w Weights) Analysis { return newPage(f).analyse(w) }

// analyse runs every check over p and scores the results with w.
func (p *page) analyse(w Weights) Analysis { return p.analyseWith(w, nil) }

// analyseWith runs every check over p, and the rendered-only checks over
// rc when it is not nil, and scores the results with w.
func (p *page) analyseWith(w Weights, rc *renderCtx) Analysis {
	f := p.f
	all := make([]Check, len(checkers), len(checkers)+len(renderedCheckers))
	for i, run := range checkers {
		all[i] = run(p)
	}
	if rc != nil {
		for _, run := range renderedCheckers {
			all = append(all, run(rc))
		}
	}
	res := groupByCategory(all)
	score := res.Score(w)
	if s := f.Page.Status; s < 200 || s > 299 {
		score = min(score, errorPageCap)
	}
	return Analysis{URL: f.FinalURL(), Results: res, Score: score, Rating: RatingFor(score), Status: f.Page.Status}
}

// groupByCategory is checks grouped by category, each group in the order
// of checks: the groups share checks' array when each category's checks
// are next to one another there (as checkers lists them), each capped at
// its length so that appending to one never overwrites the next.
func groupByCategory(checks []Check) Results {
	res := Results{}
	for i := 0; i < len(checks); {
		j := i + 1
		for j < len(checks) && checks[j].Category == checks[i].Category {
			j++
		}
		if cat := checks[i].Category; res[cat] == nil {
			res[cat] = checks[i:j:j]
		} else { // a category met again: its own copy
			res[cat] = append(res[cat], checks[i:j]...)
		}
		i = j
	}
	return res
}

// CheckInfo describes one check the analyser runs, for documentation.
type CheckInfo struct {
	ID         string
	Title      string
	Category   Category
	Importance Importance
	// RenderedOnly is true for the checks only a rendered analysis
	// (AnalyseRendered) runs; Analyse runs the others.
	RenderedOnly bool
}

// Catalogue lists every check in report order (category by category,
// the rendered-only checks last in theirs).
func Catalogue() []CheckInfo {
	empty := newPage(&webpage.Fetched{})
	rc := &renderCtx{p: empty, r: &webpage.Rendered{}}
	rc.rendering = rc.build()
	var out []CheckInfo
	for _, cat := range Categories {
		for _, run := range checkers {
			if c := run(empty); c.Category == cat {
				out = append(out, CheckInfo{ID: c.ID, Title: c.Title, Category: c.Category, Importance: c.Importance})
			}
		}
		for _, run := range renderedCheckers {
			if c := run(rc); c.Category == cat {
				out = append(out, CheckInfo{ID: c.ID, Title: c.Title, Category: c.Category, Importance: c.Importance, RenderedOnly: true})
			}
		}
	}
	return out
}

// checkInfos maps each check id of the Catalogue to its CheckInfo.
var checkInfos = sync.OnceValue(func() map[string]CheckInfo {
	m := map[string]CheckInfo{}
	for _, c := range Catalogue() {
		if _, seen := m[c.ID]; !seen {
			m[c.ID] = c
		}
	}
	return m
})

// LookupCheck returns the Catalogue's entry for check id, and whether
// there is one.
func LookupCheck(id string) (CheckInfo, bool) {
	c, ok := checkInfos()[id]
	return c, ok
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

package pagecheck

import "slices"

// Category groups checks in a report.
type Category string

// Categories, in report order.
const (
	SEO           Category = "seo"
	Performance   Category = "performance"
	Security      Category = "security"
	Miscellaneous Category = "miscellaneous"
)

// Categories lists every category in report order.
var Categories = []Category{SEO, Performance, Security, Miscellaneous}

// Importance weighs a check in the score.
type Importance string

// Importances.
const (
	High   Importance = "high"
	Medium Importance = "medium"
	Low    Importance = "low"
)

// Weights give each importance its weight in the score.
type Weights map[Importance]int

// DefaultWeights are phpRank's: high 10, medium 5, low 0.
var DefaultWeights = Weights{High: 10, Medium: 5, Low: 0}

// Check is the outcome of one check of a page.
type Check struct {
	ID         string     `json:"id"`
	Title      string     `json:"title"`
	Category   Category   `json:"category"`
	Importance Importance `json:"importance"`
	Passed     bool       `json:"passed"`
	// Value is what was found (a title, a count, a list of URLs, ...),
	// within the bounds of bound.go; it must survive a JSON round trip
	// unchanged.
	Value any `json:"value"`
	// Omitted counts the list and object entries left out of Value to keep
	// it within its bounds (maxValueItems, maxValueText); 0 when none were.
	Omitted int `json:"omitted,omitempty"`
	// Errors are machine-readable failure codes ("missing", "too_long",
	// "too_many", ...); empty when passed.
	Errors  []string `json:"errors,omitempty"`
	Message string   `json:"message"`
	// Advice says what to change, one sentence per failure code; empty
	// when passed.
	Advice string `json:"advice,omitempty"`
	// Offending are what a failed check blames, where it blames something
	// in particular: elements (as short source snippets), header values or
	// URLs, within the bounds of a value (bound.go); empty otherwise.
	Offending []string `json:"offending,omitempty"`
	// OffendingOmitted counts the offending entries left out of Offending.
	OffendingOmitted int `json:"offending_omitted,omitempty"`
}

// Results are a report's checks grouped by category, each group in check
// order.
type Results map[Category][]Check

// Score is 100 x the weight of passed checks / the weight of all checks,
// truncated to an integer (0 when no check carries weight).
func (r Results) Score(w Weights) int {
	var passed, total int
	for _, checks := range r {
		for _, c := range checks {
			total += w[c.Importance]
			if c.Passed {
				passed += w[c.Importance]
			}
		}
	}
	if total == 0 {
		return 0
	}
	return 100 * passed / total
}

// Failing is the ids of the checks r fails, in FailedChecks' order.
func (r Results) Failing() []string {
	failed := r.FailedChecks()
	if len(failed) == 0 {
		return nil
	}
	out := make([]string, len(failed))
	for i, c := range failed {
		out[i] = c.ID
	}
	return out
}

// FailedChecks is the checks r fails, by category name, then in check
// order, each id once (its first outcome).
func (r Results) FailedChecks() []Check {
	cats := make([]Category, 0, len(r))
	for c := range r {
		cats = append(cats, c)
	}
	slices.Sort(cats)
	var out []Check
	for _, c := range cats {
		for _, ch := range r[c] {
			if !ch.Passed && !slices.ContainsFunc(out, func(o Check) bool { return o.ID == ch.ID }) {
				out = append(out, ch)
			}
		}
	}
	return out
}

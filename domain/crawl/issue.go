package crawl

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/pinsight/pinsight/domain/pagecheck"
)

// MaxRelated bounds the related URLs an issue lists; RelatedTotal counts
// them all.
const MaxRelated = 50

// Issue is one site-level issue found by a crawl.
type Issue struct {
	Type IssueType
	URL  string // the URL it is about (for robots_txt_invalid, robots.txt's)
	// Line and LineText are the robots.txt line of a robots_txt_invalid
	// issue (1-based); 0 and "" otherwise.
	Line     int
	LineText string
	Detail   string // a human sentence saying what was found
	// Related are the other URLs involved: the pages linking to a broken
	// or blocked URL, the other pages sharing a title, description or
	// text, the hops of a redirect chain or loop (in order), a canonical
	// target and its hops, the alternates that do not link back. At most
	// MaxRelated, sorted unless they are hops.
	Related      []string
	RelatedTotal int
}

// Severity is the severity of the issue's type.
func (i Issue) Severity() pagecheck.Importance {
	d, _ := Definition(i.Type)
	return d.Severity
}

// Key identifies the issue across two crawls of a site: its type, its URL
// and, for a robots.txt line, the line's text (line numbers move when
// lines are added above).
func (i Issue) Key() string {
	k := string(i.Type) + " " + i.URL
	if i.LineText != "" {
		k += " " + strings.TrimSpace(i.LineText)
	}
	return k
}

// compareIssues orders issues by catalogue order, then URL, then line.
func compareIssues(a, b Issue) int {
	return cmp.Or(cmp.Compare(catalogueIndex[a.Type], catalogueIndex[b.Type]),
		strings.Compare(a.URL, b.URL), cmp.Compare(a.Line, b.Line), strings.Compare(a.LineText, b.LineText))
}

// TypeCount is how many issues of one type a crawl found.
type TypeCount struct {
	Type     IssueType
	Severity pagecheck.Importance
	Count    int
}

// Counts counts issues by type, in catalogue order (RenderedCatalogue's
// after Catalogue's), leaving out the types not found.
func Counts(issues []Issue) []TypeCount {
	n := make([]int, len(allIssues))
	for _, i := range issues {
		if idx, ok := catalogueIndex[i.Type]; ok {
			n[idx]++
		}
	}
	var out []TypeCount
	for idx, c := range n {
		if c > 0 {
			out = append(out, TypeCount{Type: allIssues[idx].Type, Severity: allIssues[idx].Severity, Count: c})
		}
	}
	return out
}

// plural writes n and the noun, with an "s" unless n is 1.
func plural(n int, noun string) string {
	s := strconv.Itoa(n) + " " + noun
	if n != 1 {
		s += "s"
	}
	return s
}

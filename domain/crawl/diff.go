package crawl

import "slices"

// Diff is how the issues of a crawl changed since an earlier crawl of the
// same site.
type Diff struct {
	New        []TypeIssues // in the later crawl only
	Fixed      []TypeIssues // in the earlier crawl only (as the earlier crawl found them)
	Persisting []TypeIssues // in both (as the later crawl found them)
}

// Comparable reports whether a diff of crawls c and o compares like with
// like, which a diff without a crawl named picks its earlier crawl by: the
// same start URL (normalised, so the same origin: scheme, host and port)
// and the same scope (Subdomains). Crawls of two ports of one host, or of
// two sections of one site, are not comparable.
func (c Crawl) Comparable(o Crawl) bool {
	return c.Settings.URL == o.Settings.URL && c.Settings.Subdomains == o.Settings.Subdomains
}

// TypeIssues are the issues of one type, in issue order.
type TypeIssues struct {
	Type   IssueType
	Issues []Issue
}

// DiffIssues compares the issues of an earlier crawl (prev) with those of
// a later one (cur), matching issues by Key. Each part lists the types in
// catalogue order, leaving out types without issues, and each type's
// issues in issue order.
func DiffIssues(prev, cur []Issue) Diff {
	inPrev := make(map[string]bool, len(prev))
	for _, i := range prev {
		inPrev[i.Key()] = true
	}
	inCur := make(map[string]bool, len(cur))
	for _, i := range cur {
		inCur[i.Key()] = true
	}
	var d Diff
	var fresh, fixed, kept []Issue
	for _, i := range cur {
		if inPrev[i.Key()] {
			kept = append(kept, i)
		} else {
			fresh = append(fresh, i)
		}
	}
	for _, i := range prev {
		if !inCur[i.Key()] {
			fixed = append(fixed, i)
		}
	}
	d.New, d.Fixed, d.Persisting = byType(fresh), byType(fixed), byType(kept)
	return d
}

// byType sorts issues and groups them by type.
func byType(issues []Issue) []TypeIssues {
	issues = slices.Clone(issues)
	slices.SortFunc(issues, compareIssues)
	var out []TypeIssues
	for _, i := range issues {
		if n := len(out); n > 0 && out[n-1].Type == i.Type {
			out[n-1].Issues = append(out[n-1].Issues, i)
			continue
		}
		out = append(out, TypeIssues{Type: i.Type, Issues: []Issue{i}})
	}
	return out
}

package crawl_test

import (
	"slices"
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
)

// TestRenderedCatalogue: the rendered issue types are Rendering.Issues'
// names, complete, known to Definition, ParseIssueType, SortIssueTypes and
// Counts after Catalogue's, and not in Catalogue.
func TestRenderedCatalogue(t *testing.T) {
	want := []string{"content_needs_js", "rendered_canonical_differs", "rendered_noindex_differs", "js_errors",
		"blocked_resources", "slow_lcp", "layout_shift"}
	if len(crawl.RenderedCatalogue) != len(want) {
		t.Fatalf("%d types, want %d", len(crawl.RenderedCatalogue), len(want))
	}
	for i, d := range crawl.RenderedCatalogue {
		if string(d.Type) != want[i] {
			t.Errorf("type %d = %s, want %s", i, d.Type, want[i])
		}
		if d.Title == "" || d.OnePer != "page" || d.Advice == "" || d.Why == "" {
			t.Errorf("%s: incomplete %+v", d.Type, d)
		}
		if got, ok := crawl.Definition(d.Type); !ok || got.Type != d.Type || got.Severity != d.Severity {
			t.Errorf("Definition(%s) = %+v, %v", d.Type, got, ok)
		}
		if _, ok := crawl.ParseIssueType(want[i]); !ok {
			t.Errorf("ParseIssueType(%s) refused", want[i])
		}
		for _, c := range crawl.Catalogue {
			if c.Type == d.Type {
				t.Errorf("%s is in Catalogue too", d.Type)
			}
		}
	}
	types := []crawl.IssueType{crawl.LayoutShift, "nope", crawl.BrokenLink, crawl.ContentNeedsJS, crawl.RobotsTxtInvalid}
	crawl.SortIssueTypes(types)
	if w := []crawl.IssueType{crawl.BrokenLink, crawl.RobotsTxtInvalid, crawl.ContentNeedsJS, crawl.LayoutShift, "nope"}; !slices.Equal(types, w) {
		t.Errorf("sorted %v, want %v", types, w)
	}
	counts := crawl.Counts([]crawl.Issue{{Type: crawl.SlowLCP}, {Type: crawl.BrokenLink}, {Type: crawl.SlowLCP}})
	if len(counts) != 2 || counts[0].Type != crawl.BrokenLink || counts[1].Type != crawl.SlowLCP || counts[1].Count != 2 || counts[1].Severity != pagecheck.Medium {
		t.Errorf("Counts = %+v", counts)
	}
}

// TestRenderedIssueTypes: a rendering's issues as crawl issue types, none
// for a page not rendered.
func TestRenderedIssueTypes(t *testing.T) {
	if got := crawl.RenderedIssueTypes(nil); got != nil {
		t.Errorf("nil rendering: %v", got)
	}
	r := &pagecheck.Rendering{Rendered: true, ContentAddedByJS: true, RobotsChanged: true,
		Loaded: pagecheck.Loaded{BlockedTotal: 1}, Lab: pagecheck.Lab{LCP: pagecheck.Metric{Value: 5000, Grade: pagecheck.GradePoor}, CLS: pagecheck.Metric{Grade: pagecheck.GradeGood}}}
	got := crawl.RenderedIssueTypes(r)
	want := []crawl.IssueType{crawl.ContentNeedsJS, crawl.RenderedNoindexDiffers, crawl.BlockedResources, crawl.SlowLCP}
	if !slices.Equal(got, want) {
		t.Errorf("RenderedIssueTypes = %v, want %v", got, want)
	}
}

package crawl_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
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

// TestRenderedIssuesDetails: each rendered issue says what was measured.
func TestRenderedIssuesDetails(t *testing.T) {
	r := &pagecheck.Rendering{Rendered: true, ContentAddedByJS: true, AddedLinksTotal: 3, CanonicalChanged: true,
		Compare: []pagecheck.FieldChange{{Field: "words", Raw: "2", Rendered: "480", Changed: true},
			{Field: "canonical", Raw: "", Rendered: "https://example.com/a", Changed: true}},
		Loaded: pagecheck.Loaded{Errors: 1, Console: []pagecheck.ConsoleMessage{{Kind: "error", Text: "boom"}}},
		Lab:    pagecheck.Lab{CLS: pagecheck.Metric{Value: 0.31, Grade: pagecheck.GradePoor}}}
	got := crawl.RenderedIssues(r)
	want := []crawl.PageIssue{
		{crawl.ContentNeedsJS, "The HTML shows 2 words, the rendered page 480; JavaScript adds 3 links."},
		{crawl.RenderedCanonicalDiffers, "The HTML's canonical is none; after JavaScript it is https://example.com/a."},
		{crawl.JSErrors, `1 console error and 0 uncaught exceptions; the first: "boom".`},
		{crawl.LayoutShift, "Cumulative Layout Shift is 0.31 (poor)."},
	}
	if !slices.Equal(got, want) {
		t.Errorf("RenderedIssues =\n%q\nwant\n%q", got, want)
	}
	if crawl.RenderedIssues(nil) != nil || crawl.RenderOf(nil).Rendered {
		t.Error("a page not rendered has rendered issues")
	}
}

// TestDetectorListsRenderedIssues: a landed page's rendered issues are
// site-level issues of their types, about its URL; a redirect's are not.
func TestDetectorListsRenderedIssues(t *testing.T) {
	d := crawl.NewDetector(crawl.Site{StartURL: "https://example.com/"})
	js := crawl.PageRender{Rendered: true, Reason: "app_shell", Issues: []crawl.PageIssue{{crawl.JSErrors, "1 console error."}}}
	d.Add(crawl.Page{URL: "https://example.com/", FinalURL: "https://example.com/", Status: 200, Render: js,
		Outlinks: []string{"https://example.com/old"}})
	d.Add(crawl.Page{URL: "https://example.com/old", FinalURL: "https://example.com/", Status: 301,
		Redirects: []string{"https://example.com/old"}, Render: js})
	var got []crawl.Issue
	for _, is := range d.Finish() {
		if is.Type == crawl.JSErrors {
			got = append(got, is)
		}
	}
	if len(got) != 1 || got[0].URL != "https://example.com/" || got[0].Detail != "1 console error." {
		t.Errorf("js_errors issues = %+v", got)
	}
}

// TestRenderTally: audited pages counted by rendered and reason, rendered
// first; pages of a crawl that does not render are not counted.
func TestRenderTally(t *testing.T) {
	tally := crawl.RenderTally{}
	for _, r := range []crawl.PageRender{{Rendered: true, Reason: "app_shell"}, {Reason: "server_rendered"},
		{Rendered: true, Reason: "app_shell"}, {}, {Rendered: true, Reason: "little_text"}} {
		tally.Add(crawl.Page{Render: r})
	}
	want := []crawl.RenderCount{{true, "app_shell", 2}, {true, "little_text", 1}, {false, "server_rendered", 1}}
	if got := tally.Counts(); !slices.Equal(got, want) {
		t.Errorf("Counts = %+v, want %+v", got, want)
	}
	if (crawl.RenderTally{}).Counts() != nil {
		t.Error("an empty tally lists counts")
	}
}

// TestSettingsRender: render is off by default, on and auto render, and
// anything else is a validation error on render.
func TestSettingsRender(t *testing.T) {
	for in, want := range map[string]pagecheck.RenderMode{"": pagecheck.RenderOff, "off": pagecheck.RenderOff, "on": pagecheck.RenderOn, "auto": pagecheck.RenderAuto} {
		s, err := crawl.NewSettings(crawl.Params{URL: "https://example.com/", Render: &in})
		if err != nil || s.Render != want || s.Renders() != (want != pagecheck.RenderOff) {
			t.Errorf("render %q: %v, %v", in, s.Render, err)
		}
	}
	if s, err := crawl.NewSettings(crawl.Params{URL: "https://example.com/"}); err != nil || s.Render != pagecheck.RenderOff {
		t.Errorf("no render: %v, %v", s.Render, err)
	}
	bad := "yes"
	_, err := crawl.NewSettings(crawl.Params{URL: "https://example.com/", Render: &bad})
	var ve *report.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields["render"]) == 0 {
		t.Errorf("render yes: %v", err)
	}
}

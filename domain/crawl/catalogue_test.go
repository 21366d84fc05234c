package crawl_test

import (
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
)

// TestCatalogue: the ids are the API's, in catalogue order, each with a
// severity, a title, what one issue stands for, advice and a reason.
func TestCatalogue(t *testing.T) {
	want := []string{"broken_link", "redirect_chain", "redirect_loop", "orphan_page", "duplicate_title",
		"duplicate_description", "duplicate_content", "noindex_in_sitemap", "non_canonical_in_sitemap",
		"sitemap_url_error", "blocked_by_robots", "deep_page", "canonical_target_error", "hreflang_no_return",
		"missing_hreflang_for_translation",
		"robots_txt_invalid"}
	if len(crawl.Catalogue) != len(want) {
		t.Fatalf("%d types, want %d", len(crawl.Catalogue), len(want))
	}
	for i, d := range crawl.Catalogue {
		if string(d.Type) != want[i] {
			t.Errorf("type %d = %s, want %s", i, d.Type, want[i])
		}
		if d.Severity != pagecheck.High && d.Severity != pagecheck.Medium && d.Severity != pagecheck.Low {
			t.Errorf("%s: severity %q", d.Type, d.Severity)
		}
		if d.Title == "" || d.OnePer == "" || d.Advice == "" || d.Why == "" {
			t.Errorf("%s: incomplete %+v", d.Type, d)
		}
		if got, ok := crawl.Definition(d.Type); !ok || got.Type != d.Type {
			t.Errorf("Definition(%s) = %+v, %v", d.Type, got, ok)
		}
		if got, ok := crawl.ParseIssueType(want[i]); !ok || got != d.Type {
			t.Errorf("ParseIssueType(%s) = %s, %v", want[i], got, ok)
		}
	}
	if _, ok := crawl.ParseIssueType("Broken_Link"); ok {
		t.Error("ParseIssueType accepted a wrong case")
	}
	if _, ok := crawl.Definition("nope"); ok {
		t.Error("Definition of an unknown type")
	}
}

package sharepage_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/domain/pagecheck"
)

// TestSharePageShowsFailuresFirst: the report page lists the failed checks
// before the passed ones, grouped by importance (high first), each with its
// advice and its offending elements escaped; every check appears once.
func TestSharePageShowsFailuresFirst(t *testing.T) {
	s := apitest.NewSiteServer(t)
	ada := apitest.Login(t, s.H, "ada@example.com")
	s.Analyser.Set("https://alpha.com/", 70) // check_7, 8 and 9 fail (high); title passes (low)
	s.Analyser.SetExtra([]pagecheck.Check{
		{ID: "low_one", Title: "Low one", Category: pagecheck.SEO, Importance: pagecheck.Low, Errors: []string{"x"}, Message: "low", Advice: "fix low"},
		{ID: "medium_one", Title: "Medium one", Category: pagecheck.Miscellaneous, Importance: pagecheck.Medium, Errors: []string{"x"}, Message: "medium", Advice: "fix medium"},
	})
	pub := s.CreateReport(t, ada, "url=https://alpha.com/&privacy=0")
	s.Analyser.SetExtra(nil)
	p := apitest.GetPage(t, s.H, pub.ShareURL)
	if p.Status != 200 {
		t.Fatalf("page = %d", p.Status)
	}
	at := func(s string) int { return strings.Index(p.Body, s) }
	if fixes, high, medium, low, seo := at(`id="fixes"`), at(`id="fix-high"`), at(`id="fix-medium"`), at(`id="fix-low"`), at(`id="cat-seo"`); fixes < 0 || high < fixes || medium < high || low < medium || seo < low {
		t.Fatalf("sections at fixes %d, fix-high %d, fix-medium %d, fix-low %d, cat-seo %d:\n%s", fixes, high, medium, low, seo, p.Body)
	}
	order := regexp.MustCompile(`<li class="check (passed|failed)" data-check="([a-z_0-9]+)"`).FindAllStringSubmatch(p.Body, -1)
	var got []string
	for _, m := range order {
		got = append(got, m[1]+":"+m[2])
	}
	want := "failed:check_8 failed:check_9 failed:check_7 failed:medium_one failed:low_one " + // importance, then report order
		"passed:check_0 passed:check_4 passed:title passed:check_1 passed:check_5 passed:check_2 passed:check_6 passed:check_3"
	if strings.Join(got, " ") != want {
		t.Errorf("checks in page order:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	// Advice and offending elements are shown, escaped; nothing the page
	// blames becomes markup.
	for _, s := range []string{
		`<p class="advice"><strong>How to fix:</strong> advice 9</p>`,
		`<li><code>&lt;a href=&#34;javascript:go(9)&#34;&gt;more&lt;/a&gt;</code></li><li><code>&lt;applet&gt;</code></li>`,
		`<p class="muted omitted">1 more not shown</p>`,
		`5 failed, most important first`,
		`SEO <span class="muted">3/5 passed</span>`,
	} {
		if !strings.Contains(p.Body, s) {
			t.Errorf("page lacks %s", s)
		}
	}
	if strings.Contains(p.Body, "<applet>") || strings.Contains(p.Body, `href="javascript:`) || strings.Count(p.Body, `class="advice"`) != 5 {
		t.Errorf("the page carries raw offending markup or advice for passed checks:\n%s", p.Body)
	}
	// A report without failures has no section to fix.
	s.Analyser.Set("https://beta.org/", 100)
	all := s.CreateReport(t, ada, "url=https://beta.org/&privacy=0")
	if p := apitest.GetPage(t, s.H, all.ShareURL); p.Status != 200 || strings.Contains(p.Body, `id="fixes"`) || strings.Count(p.Body, `class="check passed"`) != 11 {
		t.Errorf("all passed: %d %s", p.Status, p.Body)
	}
}

package crawl_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
)

// titleGroupPages are n landed pages sharing one title, in langs (""
// for none) at random, each naming up to 3 others of them in hreflang.
func titleGroupPages(r *rand.Rand, n int, langs []string) []crawl.Page {
	pages := make([]crawl.Page, n)
	for i := range pages {
		p := page(fmt.Sprintf("/t/%04d", r.IntN(100_000)*10+i%10), 1)
		p.Title, p.Lang = "One title", langs[r.IntN(len(langs))]
		pages[i] = p
	}
	for i := range pages {
		for range r.IntN(4) {
			pages[i].Hreflang = append(pages[i].Hreflang, pages[r.IntN(n)].URL)
		}
	}
	return pages
}

// TestTranslationsAgainstPairs: in a group of pages sharing a title in
// many languages, the issues of every page are those a comparison of
// every pair gives (same language, or either in none: duplicate; another
// language with no hreflang link either way: translation), their related
// URLs the first MaxRelated of those pages in URL order.
func TestTranslationsAgainstPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 44))
	for _, tc := range []struct {
		n     int
		langs []string
	}{
		{12, []string{"en", "en-GB", "de", "hi", ""}},
		{300, []string{"en", "en", "en", "en", "de", "ta", "bn", "", "fr-CA"}},
		{200, []string{"en", "de"}},
	} {
		pages := titleGroupPages(r, tc.n, tc.langs)
		got := map[string]crawl.Issue{}
		for _, is := range detect(crawl.Site{StartURL: site + "/"}, pages) {
			if is.Type == crawl.DuplicateTitle || is.Type == crawl.MissingHreflangForTranslation {
				got[string(is.Type)+" "+is.URL] = is
			}
		}
		primary := func(l string) string {
			for i := range len(l) {
				if l[i] == '-' {
					return l[:i]
				}
			}
			return l
		}
		first := map[string]crawl.Page{} // a URL drawn twice keeps its first record, as the detector does
		for _, p := range pages {
			if _, seen := first[p.URL]; !seen {
				first[p.URL] = p
			}
		}
		want := 0
		for _, p := range first {
			var same, trans []string
			for _, q := range first {
				if q.URL == p.URL {
					continue
				}
				lp, lq := primary(p.Lang), primary(q.Lang)
				switch {
				case lp == "" || lq == "" || lp == lq:
					same = append(same, q.URL)
				case !slices.Contains(p.Hreflang, q.URL) && !slices.Contains(q.Hreflang, p.URL):
					trans = append(trans, q.URL)
				}
			}
			for typ, list := range map[crawl.IssueType][]string{crawl.DuplicateTitle: same, crawl.MissingHreflangForTranslation: trans} {
				is, found := got[string(typ)+" "+p.URL]
				if len(list) == 0 {
					if found {
						t.Errorf("n=%d: %s %s (lang %q) found, want none", tc.n, typ, p.URL, p.Lang)
					}
					continue
				}
				want++
				slices.Sort(list)
				if !found || is.RelatedTotal != len(list) || !slices.Equal(is.Related, list[:min(len(list), crawl.MaxRelated)]) {
					t.Errorf("n=%d: %s %s (lang %q) found %v: %d related, the first %.80q; want %d, the first %.80q", tc.n, typ, p.URL, p.Lang,
						found, is.RelatedTotal, is.Related, len(list), list)
				}
			}
		}
		if len(got) != want {
			t.Errorf("n=%d: %d title issues, want %d", tc.n, len(got), want)
		}
	}
}

// BenchmarkTranslations10k: one title on 10,000 pages, 9,000 in English
// and the rest in 100 other languages or none, with hreflang links: the
// worst a hostile site can ask of the title comparison.
func BenchmarkTranslations10k(b *testing.B) {
	langs := []string{""}
	for i := range 100 {
		langs = append(langs, fmt.Sprintf("x%d", i))
	}
	r := rand.New(rand.NewPCG(1, 2))
	pages := titleGroupPages(r, 1000, langs)
	pages = append(pages, titleGroupPages(r, 9000, []string{"en"})...)
	b.ReportAllocs()
	for b.Loop() {
		if issues := detect(crawl.Site{StartURL: site + "/"}, pages); len(issues) == 0 {
			b.Fatal("no issues")
		}
	}
}

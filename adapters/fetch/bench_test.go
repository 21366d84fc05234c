package fetch_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webpage"
)

// benchPage is an article-like page of about 300 KB: head metadata, a
// navigation, sections of paragraphs with links and images, a table.
func benchPage(size int) []byte {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Benchmark article about garden tools</title>` +
		`<meta name="description" content="A long article."><meta name="viewport" content="width=device-width">` +
		`<link rel="canonical" href="https://bench.example/article"><link rel="icon" href="/favicon.ico">` +
		`<link rel="stylesheet" href="/site.css"><script src="/app.js" defer></script>` +
		`<meta property="og:title" content="Benchmark"></head><body><nav>`)
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, `<a href="/section/%d">Section %d</a> `, i, i)
	}
	b.WriteString("</nav><main><h1>Garden tools, at length</h1>")
	for i := 0; b.Len() < size-2000; i++ {
		fmt.Fprintf(&b, `<section id="s%d"><h2>Part %d</h2><p>Garden tools last when they are cleaned, oiled and stored dry; `+
			`a forged spade outlives a pressed one and <a href="/guides/spade-%d">our guide</a> explains why. `+
			`Write to <em>care@bench.example</em> with questions.</p><img src="/img/p%d.webp" alt="Part %d">`+
			`<ul><li>Clean</li><li>Oil</li><li>Sharpen</li></ul><table><tr><td>Tool</td><td>Years</td></tr><tr><td>Spade</td><td>%d</td></tr></table></section>`,
			i, i, i, i, i, i%30)
	}
	b.WriteString(`</main><footer><a href="https://twitter.com/bench" target="_blank" rel="noopener">Twitter</a></footer></body></html>`)
	return []byte(b.String())
}

// BenchmarkAnalyse300KB is the analysis CPU time of a ~300 KB page: HTML
// parsing into the document tree plus every check (no network).
func BenchmarkAnalyse300KB(b *testing.B) {
	body := benchPage(300 << 10)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		fd := &webpage.Fetched{
			RequestedURL: "https://bench.example/article",
			Page: webpage.Response{URL: "https://bench.example/article", Status: 200, Body: body, WireBytes: int64(len(body)) / 5,
				Encoding: "gzip", Elapsed: 300 * time.Millisecond, Header: map[string][]string{"Content-Type": {"text/html; charset=utf-8"}}},
			Document: fetch.ParseHTML(body),
			Robots:   &webpage.Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /admin/\nSitemap: https://bench.example/sitemap.xml\n")},
			NotFound: &webpage.Response{Status: 404},
		}
		if a := pagecheck.Analyse(fd, pagecheck.DefaultWeights); a.Score == 0 {
			b.Fatal("no score")
		}
	}
}

// BenchmarkChecks300KB is the checks alone over an already parsed page.
func BenchmarkChecks300KB(b *testing.B) {
	body := benchPage(300 << 10)
	fd := &webpage.Fetched{Page: webpage.Response{URL: "https://bench.example/article", Status: 200, Body: body}, Document: fetch.ParseHTML(body)}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		pagecheck.Analyse(fd, pagecheck.DefaultWeights)
	}
}

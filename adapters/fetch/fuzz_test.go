package fetch_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webpage"
)

// FuzzAnalyse parses arbitrary bytes as HTML and runs every check over
// them (robots.txt, the Link, X-Robots-Tag and HSTS headers, and the
// canonical and alternate pages get the same bytes): it must never panic,
// and always give every check a verdict and a score in 0..100.
func FuzzAnalyse(f *testing.F) {
	f.Add([]byte(`<!doctype html><html lang=en><title>t</title><h1>x</h1><a href="/a_b?c" target=_blank>l</a>`))
	f.Add([]byte(`<base href="::bad"><link rel=canonical href="%zz"><link rel=alternate hreflang=en-Latn-GB href=//x>`))
	f.Add([]byte("User-agent: *\nDisallow: /*.php$\nAllow: /\nSitemap: /s.xml\n"))
	f.Add([]byte(`<svg><title>s</title><math><mi>x</mi></math></svg><picture><source srcset="a.webp"><img src=a.jpg></picture>`))
	f.Add([]byte(`<https://fuzz.example/c>; rel="canonical", <https://fuzz.example/fr>; rel=alternate; hreflang="fr", <x`))
	f.Add([]byte(`googlebot: noindex, unavailable_after: Fri, 25 Jun 2010 15:00:00 GMT, max-snippet:x`))
	f.Add([]byte(`<style>@media x{body{font-size:1px}} html{font:12px/1 a} body{font-size:1.1em;{</style><body style="font-size:9pt">` +
		`<script type="application/ld+json">{"@context":1,"@graph":[{}]}</script><a href="javascript:x">click here</a><embed src=a.swf>`))
	total := 0 // the checks of a page not rendered
	for _, c := range pagecheck.Catalogue() {
		if !c.RenderedOnly {
			total++
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fd := &webpage.Fetched{
			RequestedURL: "https://fuzz.example/p",
			Page: webpage.Response{URL: "https://fuzz.example/p?q=1", Status: 200, Body: b, Elapsed: time.Second,
				Header: map[string][]string{"Content-Type": {"text/html"}, "Strict-Transport-Security": {string(b)}, "X-Robots-Tag": {string(b)}, "Link": {string(b)}}},
			Document: fetch.ParseHTML(b),
			Robots:   &webpage.Response{Status: 200, Body: b},
			NotFound: &webpage.Response{Status: 404},
			At:       time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		}
		next := pagecheck.FollowUps(fd)
		if len(next.Alternates) > pagecheck.MaxAlternateFetches {
			t.Fatalf("%d alternates to fetch", len(next.Alternates))
		}
		linked := webpage.Linked{URL: next.Canonical, Response: &fd.Page, Document: fd.Document}
		if next.Canonical != "" {
			fd.Canonical = &linked
		}
		for _, u := range next.Alternates {
			fd.Alternates = append(fd.Alternates, webpage.Linked{URL: u, Response: &fd.Page, Document: fd.Document})
		}
		a := pagecheck.Analyse(fd, pagecheck.DefaultWeights)
		n := 0
		for _, cs := range a.Results {
			n += len(cs)
		}
		if n != total || a.Score < 0 || a.Score > 100 {
			t.Fatalf("%d checks (want %d), score %d", n, total, a.Score)
		}
		if strings.Contains(string(b), "\x00") && a.URL == "" {
			t.Fatal("lost the URL")
		}
	})
}

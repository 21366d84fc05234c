package fetch_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/site"
)

// FuzzAnalyse parses arbitrary bytes as HTML and runs every check over
// them (robots.txt gets the same bytes): it must never panic, and always
// give every check a verdict and a score in 0..100.
func FuzzAnalyse(f *testing.F) {
	f.Add([]byte(`<!doctype html><html lang=en><title>t</title><h1>x</h1><a href="/a_b?c" target=_blank>l</a>`))
	f.Add([]byte(`<base href="::bad"><link rel=canonical href="%zz"><link rel=alternate hreflang=en-Latn-GB href=//x>`))
	f.Add([]byte("User-agent: *\nDisallow: /*.php$\nAllow: /\nSitemap: /s.xml\n"))
	f.Add([]byte(`<svg><title>s</title><math><mi>x</mi></math></svg><picture><source srcset="a.webp"><img src=a.jpg></picture>`))
	total := len(site.Catalogue())
	f.Fuzz(func(t *testing.T, b []byte) {
		fd := &site.Fetched{
			RequestedURL: "https://fuzz.example/p",
			Page: site.Response{URL: "https://fuzz.example/p?q=1", Status: 200, Body: b, Elapsed: time.Second,
				Header: map[string][]string{"Content-Type": {"text/html"}, "Strict-Transport-Security": {string(b)}, "X-Robots-Tag": {string(b)}}},
			Document: fetch.ParseHTML(b),
			Robots:   &site.Response{Status: 200, Body: b},
			NotFound: &site.Response{Status: 404},
		}
		a := site.Analyse(fd, site.DefaultWeights)
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

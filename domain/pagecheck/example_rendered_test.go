package pagecheck_test

import (
	"fmt"

	"github.com/pinsight/pinsight/domain/pagecheck"
)

// A single-page application's shell needs rendering; rendered, its
// analysis says what only scripts write.
func ExampleAnalyseRendered() {
	const u = "https://shop.example/guides/spades"
	shell := []byte(`<!doctype html><html lang="en"><head><title>Loading…</title>` +
		`<script type="module" src="/static/app.js"></script></head><body><div id="root"></div></body></html>`)
	raw := fetchedHTML(u, shell, "")
	needs, reason := pagecheck.NeedsRendering(raw)
	fmt.Println(needs, reason)

	built := []byte(`<!doctype html><html lang="en"><head><title>Garden spades</title>` +
		`<link rel="canonical" href="https://shop.example/guides/spades">` +
		`<script type="module" src="/static/app.js"></script></head><body><div id="root"><h1>Garden spades</h1>` +
		`<p>` + words(250) + `</p><a href="/guides/">More guides</a></div></body></html>`)
	a := pagecheck.AnalyseRendered(raw, renderedHTML(u, built), pagecheck.DefaultWeights)
	a.Rendering.Reason = reason
	for _, c := range a.Rendering.Compare {
		if c.Changed {
			fmt.Printf("%s: %q -> %q\n", c.Field, c.Raw, c.Rendered)
		}
	}
	fmt.Println(a.Rendering.Issues())
	// Output:
	// true app_shell
	// title: "Loading…" -> "Garden spades"
	// canonical: "" -> "https://shop.example/guides/spades"
	// h1: "" -> "Garden spades"
	// words: "0" -> "254"
	// internal_links: "0" -> "1"
	// [content_needs_js rendered_canonical_differs]
}

package pagecheck_test

import (
	"testing"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webpage"
)

func TestNeedsRendering(t *testing.T) {
	const u = "https://shop.example/p"
	page := func(body string) *webpage.Fetched {
		return fetchedHTML(u, []byte("<!doctype html><html><head><title>t</title></head><body>"+body+"</body></html>"), "")
	}
	for _, tc := range []struct {
		name   string
		f      *webpage.Fetched
		needs  bool
		reason string
	}{
		{"spa shell", fetchedHTML(u, fixture(t, "shell_raw.html"), ""), true, pagecheck.ReasonAppShell},
		{"next.js root, empty, with a footer of text", page(`<div id="__next"></div><footer><p>` + words(80) + `</p></footer><script src="/_next/static/chunks/main.js"></script>`), true, pagecheck.ReasonAppShell},
		{"nuxt root with only a spinner", page(`<div id="__nuxt"><div class="spinner"><svg><circle r=4 /></svg></div></div><script src="/_nuxt/app.js"></script>`), true, pagecheck.ReasonAppShell},
		{"angular app-root", page(`<app-root></app-root>` + `<p>` + words(80) + `</p><script src="main.js" type="module"></script>`), true, pagecheck.ReasonAppShell},
		{"noscript notice", page(`<main><p>` + words(120) + `</p></main><noscript><p>This site requires JavaScript. Please turn it on.</p></noscript><script>boot()</script>`), true, pagecheck.ReasonNoscriptNotice},
		{"little text", page(`<div id="mount"><p>Loading…</p></div><script src="/bundle.js"></script>`), true, pagecheck.ReasonLittleText},
		{"little text at the threshold", page(`<p>` + words(pagecheck.ShellMaxWords) + `</p><script src="/bundle.js"></script>`), false, pagecheck.ReasonServerRendered},
		{"little text one below", page(`<p>` + words(pagecheck.ShellMaxWords-1) + `</p><script src="/bundle.js"></script>`), true, pagecheck.ReasonLittleText},
		{"article with analytics and a comments notice", fetchedHTML(u, fixture(t, "article.html"), ""), false, pagecheck.ReasonServerRendered},
		{"server-rendered next.js root", page(`<div id="__next"><h1>Spades</h1><p>` + words(80) + `</p></div><script src="/_next/main.js"></script>`), false, pagecheck.ReasonServerRendered},
		{"tiny static page", page(`<p>Hello.</p>`), false, pagecheck.ReasonNoScripts},
		{"only json data scripts", page(`<div id="root"></div><script type="application/ld+json">{}</script><script type="application/json">{"a":1}</script>`), false, pagecheck.ReasonNoScripts},
		{"not html", &webpage.Fetched{Page: webpage.Response{URL: u + ".pdf", Status: 200, Body: []byte("%PDF-1.7")}}, false, pagecheck.ReasonNotHTML},
	} {
		needs, reason := pagecheck.NeedsRendering(tc.f)
		if needs != tc.needs || reason != tc.reason {
			t.Errorf("%s: NeedsRendering = %v %q, want %v %q", tc.name, needs, reason, tc.needs, tc.reason)
		}
	}
}

package pagecheck

import (
	"strings"

	"github.com/pinsight/pinsight/domain/webpage"
)

// Thresholds of NeedsRendering, in visible words of the raw HTML's <body>
// (the words the content_length check counts).
const (
	// ShellMaxWords: a page with scripts and fewer visible words than
	// this is an application shell ("little_text").
	ShellMaxWords = 50
	// NoticeMaxWords: a <noscript> notice asking for JavaScript marks an
	// application shell only on a page with fewer visible words than
	// this; a server-rendered article may carry one for its comments.
	NoticeMaxWords = 300
)

// Reasons NeedsRendering gives: the first three say the page needs
// rendering, the others that it does not.
const (
	ReasonAppShell       = "app_shell"       // an empty application root element, with scripts
	ReasonNoscriptNotice = "noscript_notice" // a <noscript> asking to enable JavaScript, little text
	ReasonLittleText     = "little_text"     // fewer than ShellMaxWords visible words, with scripts
	ReasonNotHTML        = "not_html"        // the page is not an HTML document
	ReasonNoScripts      = "no_scripts"      // the page runs no script: rendering adds nothing
	ReasonServerRendered = "server_rendered" // the HTML holds the page's content
)

// shellRootIDs are the ids of the element client-side frameworks mount
// their application in (React, Vue, Next.js, Nuxt, Gatsby, Svelte...).
var shellRootIDs = map[string]bool{
	"root": true, "app": true, "__next": true, "__nuxt": true, "___gatsby": true, "svelte": true, "q-app": true, "main-app": true,
}

// shellRootTags are custom elements frameworks mount their application in
// (Angular's app-root).
var shellRootTags = map[string]bool{"app-root": true}

// noticeWords are the words of a <noscript> notice that asks for
// JavaScript, besides "javascript" itself.
var noticeWords = []string{"enable", "requires", "require", "need", "turn on", "activate", "switch on", "allow", "support"}

// NeedsRendering is the auto rule: it tells whether the raw HTML of f
// looks like an application shell that only a browser running its scripts
// turns into the page, with a short machine-readable reason. A page that
// is not HTML never needs rendering ("not_html"), nor one without a script
// ("no_scripts": a <script> with a src, or inline code, JSON data blocks
// not counted). A page with scripts needs rendering when an application
// root element (id root, app, __next, __nuxt, ___gatsby, svelte, q-app or
// main-app, or <app-root>) holds no visible text ("app_shell"), when a
// <noscript> asks to enable JavaScript and the body has fewer than
// NoticeMaxWords (300) visible words ("noscript_notice"), or when the body
// has fewer than ShellMaxWords (50) visible words ("little_text");
// otherwise the HTML holds its content ("server_rendered").
func NeedsRendering(f *webpage.Fetched) (bool, string) {
	if f.Document == nil {
		return false, ReasonNotHTML
	}
	return newPage(f).needsRendering()
}

// needsRendering is NeedsRendering of an indexed page.
func (p *page) needsRendering() (bool, string) {
	if !p.runsScripts() {
		return false, ReasonNoScripts
	}
	if p.emptyRoot() {
		return true, ReasonAppShell
	}
	words := p.wordCount()
	if words < NoticeMaxWords && p.noscriptNotice() {
		return true, ReasonNoscriptNotice
	}
	if words < ShellMaxWords {
		return true, ReasonLittleText
	}
	return false, ReasonServerRendered
}

// runsScripts reports whether the page has a script a browser runs: one
// with a src, or inline code (a data block such as JSON-LD or
// application/json is not code).
func (p *page) runsScripts() bool {
	for _, s := range p.tags["script"] {
		if attr(s, "src") != "" {
			return true
		}
		mt, _, _ := strings.Cut(strings.ToLower(attr(s, "type")), ";")
		switch strings.TrimSpace(mt) {
		case "", "module", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript":
			if strings.TrimSpace(textOf(s)) != "" {
				return true
			}
		}
	}
	return false
}

// emptyRoot reports whether the page has an application root element
// without visible text.
func (p *page) emptyRoot() bool {
	found := false
	p.doc.Walk(func(n *webpage.Node) bool {
		if found || n.Type != webpage.ElementNode {
			return !found
		}
		if skipText[n.Tag] {
			return false
		}
		if shellRootTags[n.Tag] || shellRootIDs[strings.ToLower(attr(n, "id"))] {
			if !hasVisibleText(n) {
				found = true
			}
			return false
		}
		return true
	})
	return found
}

// hasVisibleText reports whether n holds a word of text outside scripts,
// styles and the like.
func hasVisibleText(n *webpage.Node) bool {
	found := false
	n.Walk(func(c *webpage.Node) bool {
		switch {
		case found:
			return false
		case c.Type == webpage.ElementNode && skipText[c.Tag]:
			return false
		case c.Type == webpage.TextNode && strings.TrimSpace(c.Text) != "":
			found = true
		}
		return !found
	})
	return found
}

// noscriptNotice reports whether a <noscript> of the page asks to enable
// JavaScript: its text (markup included, as a browser running scripts
// parses it) names JavaScript and one of noticeWords.
func (p *page) noscriptNotice() bool {
	for _, n := range p.tags["noscript"] {
		t := strings.ToLower(joinedText(n))
		if !strings.Contains(t, "javascript") {
			continue
		}
		for _, w := range noticeWords {
			if strings.Contains(t, w) {
				return true
			}
		}
	}
	return false
}

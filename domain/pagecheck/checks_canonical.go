package pagecheck

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/pinsight/pinsight/domain/pagecheck/internal/langtag"
	"github.com/pinsight/pinsight/domain/webpage"
)

// Checks of the page's declared canonical URL and language alternates, in
// its markup and its Link header alike.

// codeList collects failure codes, each once, in the order found.
type codeList []string

func (c *codeList) add(code string) {
	if !slices.Contains(*c, code) {
		*c = append(*c, code)
	}
}

// checkCanonical reads the canonical links of the markup and the Link
// header. It fails when there is none, when several disagree, and when the
// one declared is relative, on another site, another language's version,
// the home page of a deeper page, or (probed once: Fetched.Canonical) does
// not answer 200 itself.
func checkCanonical(p *page) Check {
	r := p.references()
	cs := r.canonicals
	if len(cs) == 0 {
		return defCanonical.fail(nil, "The page has no canonical link.", "missing")
	}
	href := cs[0].raw
	var codes codeList
	var o offenders
	markup, header := distinct(cs, false), distinct(cs, true)
	if len(markup) > 1 {
		codes.add("too_many")
	}
	if len(header) > 1 || (len(markup) > 0 && len(header) > 0 && !slices.Equal(markup, header)) {
		codes.add("conflict")
	}
	if len(codes) > 0 {
		for _, c := range cs {
			o.add(c.where())
		}
		return defCanonical.fail(href, fmt.Sprintf("The page declares canonical URLs that disagree (%d in its markup, %d in its Link header); search engines ignore them all.",
			len(markup), len(header)), codes...).blame(o)
	}
	for _, c := range cs {
		if !c.abs || c.url == nil {
			return defCanonical.fail(orNil(href), "The canonical link should be an absolute http(s) URL.", "relative").blame(offend(c))
		}
	}
	u := cs[0].url
	switch {
	case !p.sameSite(u.Hostname()):
		return defCanonical.fail(href, "The canonical link points to another site ("+u.Hostname()+").", "other_host").blame(offend(cs[0]))
	case p.isAlternate(u):
		return defCanonical.fail(href, "The canonical link points to another language version of the page (one of its hreflang alternates).", "hreflang_alternate").blame(offend(cs[0]))
	case isRoot(u) && !isRoot(p.url) && normURL(u) != normURL(p.url):
		return defCanonical.fail(href, "The canonical link of a page below the site's root points to the root (the home page).", "root").blame(offend(cs[0]))
	}
	probe := p.f.Canonical
	if normURL(u) == normURL(p.url) || probe == nil || !sameURL(probe.URL, u) {
		return defCanonical.pass(href, "The page has one absolute canonical link on its own site.")
	}
	if probe.Response == nil {
		return defCanonical.pass(href, "The page has one absolute canonical link on its own site (it did not answer in time to be verified).")
	}
	s := probe.Response.Status
	switch {
	case s >= 300 && s < 400:
		msg := fmt.Sprintf("The canonical URL answers %d, a redirect", s)
		if loc := headerValue(probe.Response.Header, "Location"); loc != "" {
			msg += " to " + loc
		}
		return defCanonical.fail(href, msg+".", "redirects").blame(offend(cs[0]))
	case s < 200 || s >= 300:
		return defCanonical.fail(href, fmt.Sprintf("The canonical URL answers %d instead of 200.", s), "error_status").blame(offend(cs[0]))
	}
	return defCanonical.pass(href, fmt.Sprintf("The page has one absolute canonical link on its own site, and it answers %d.", s))
}

// distinct lists the distinct URLs (normURL) of the references from the
// header or from the markup.
func distinct(rs []linkRef, header bool) []string {
	var out []string
	for _, r := range rs {
		if r.fromHeader() == header && !slices.Contains(out, r.key()) {
			out = append(out, r.key())
		}
	}
	slices.Sort(out)
	return out
}

// offend is the reference r, blamed.
func offend(r linkRef) offenders {
	var o offenders
	o.add(r.where())
	return o
}

// isAlternate reports whether u is one of the page's hreflang alternates
// other than the page itself.
func (p *page) isAlternate(u *url.URL) bool {
	k := normURL(u)
	if k == normURL(p.url) {
		return false
	}
	for _, a := range p.references().alternates {
		if a.url != nil && a.key() == k {
			return true
		}
	}
	return false
}

// isRoot reports whether u is a site's root: path "/" and no query.
func isRoot(u *url.URL) bool { return (u.Path == "" || u.Path == "/") && u.RawQuery == "" }

// sameURL reports whether raw is u, compared by normURL.
func sameURL(raw string, u *url.URL) bool {
	v, err := url.Parse(raw)
	return err == nil && normURL(v) == normURL(u)
}

// headerValue is the first value of the header name (canonical form) of h.
func headerValue(h map[string][]string, name string) string {
	if v := h[name]; len(v) > 0 {
		return strings.TrimSpace(v[0])
	}
	return ""
}

// checkHreflang reads the language alternates of the markup and the Link
// header: valid codes (BCP 47 subtags, x-default), absolute URLs, one URL
// per code, the page itself among them, and, for the alternates fetched
// (Fetched.Alternates), an answer of 200 with a link back to the page.
func checkHreflang(p *page) Check {
	alts := p.references().alternates
	if len(alts) == 0 {
		return defHreflang.pass(map[string]any{}, "The page declares no language alternates; nothing to check.")
	}
	self := p.self()
	value := map[string]any{}
	var codes codeList
	var o offenders
	hasSelf := false
	for _, a := range alts {
		key := strings.ToLower(a.lang)
		bad := false
		if prev, dup := value[key]; dup && prev != a.raw {
			codes.add("duplicate")
			bad = true
		}
		value[key] = a.raw
		if !langtag.ValidHreflang(a.lang) {
			codes.add("invalid_code")
			bad = true
		}
		if !a.abs || a.url == nil {
			codes.add("relative")
			bad = true
		} else if self[a.key()] {
			hasSelf = true
		}
		if bad {
			o.add(a.where())
		}
	}
	if !hasSelf {
		codes.add("missing_self")
	}
	unverified := 0
	for _, l := range p.f.Alternates {
		switch problem, code := p.alternateProblem(l, self); code {
		case "":
		case "unverified":
			unverified++
		default:
			codes.add(code)
			o.add(l.URL + " " + problem)
		}
	}
	if len(codes) > 0 {
		return defHreflang.fail(value, "The hreflang alternates should be absolute URLs with valid, distinct language codes, including the page itself, each answering 200 and linking back ("+
			strings.Join(codes, ", ")+").", codes...).blame(o)
	}
	msg := fmt.Sprintf("The page's %d hreflang alternates are consistent", len(alts))
	if n := len(p.f.Alternates) - unverified; n > 0 {
		msg += fmt.Sprintf("; the %d fetched link back to it", n)
	}
	if unverified > 0 {
		msg += fmt.Sprintf("; %d could not be verified", unverified)
	}
	return defHreflang.pass(value, msg+".")
}

// alternateProblem says what is wrong with a fetched alternate: its code
// ("" when nothing, "unverified" when it cannot be told) and a phrase.
func (p *page) alternateProblem(l webpage.Linked, self map[string]bool) (problem, code string) {
	r := l.Response
	switch {
	case r == nil:
		return "", "unverified"
	case r.Status >= 300 && r.Status < 400:
		return fmt.Sprintf("answers %d (a redirect)", r.Status), "alternate_redirects"
	case r.Status < 200 || r.Status >= 300:
		return fmt.Sprintf("answers %d", r.Status), "alternate_error"
	}
	alt := linkPage(&webpage.Fetched{Page: *r, Document: l.Document})
	for _, back := range alt.references().alternates {
		if back.url != nil && self[back.key()] {
			return "", ""
		}
	}
	if r.Truncated {
		return "", "unverified" // the link back may be beyond what was read
	}
	return "does not link back to this page", "no_return_link"
}

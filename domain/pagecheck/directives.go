package pagecheck

import (
	"strconv"
	"strings"
	"time"
)

// A robots directive, from a robots <meta> or an X-Robots-Tag header, as
// Google and Bing document them: names are case-insensitive; directives are
// separated by commas; a header value may start with a crawler's name and a
// colon ("googlebot: noindex"), which scopes the directives that follow it
// until the next crawler name; without one they apply to every crawler.
type directive struct {
	agent string // lower-case crawler name; "*" for every crawler
	name  string // lower-case directive name ("noindex", "max-snippet"...)
	value string // the value after the colon, for the directives that take one
	from  string // what declared it, for a report: the element or the header
	// problem says why the directive is not valid ("" when it is).
	problem string
}

// knownDirectives are the directives crawlers document, with whether they
// take a value.
var knownDirectives = map[string]bool{
	"all": false, "index": false, "follow": false, "noindex": false, "nofollow": false, "none": false,
	"noarchive": false, "nocache": false, "nosnippet": false, "noimageindex": false, "notranslate": false,
	"indexifembedded": false, "noodp": false, "noydir": false, "noyaca": false, "nositelinkssearchbox": false,
	"max-snippet": true, "max-image-preview": true, "max-video-preview": true, "unavailable_after": true,
}

// robotsMetaNames are the <meta name> values that carry robots directives:
// every crawler's and the main crawlers' own.
var robotsMetaNames = map[string]bool{
	"robots": true, "googlebot": true, "googlebot-news": true, "googlebot-image": true, "googlebot-video": true,
	"bingbot": true, "msnbot": true, "duckduckbot": true, "yandex": true, "yandexbot": true, "baiduspider": true,
	"applebot": true, "slurp": true,
}

// searchCrawlers are the crawlers whose exclusion keeps a page out of the
// main search engines: a noindex for any of them fails the noindex check
// (Lighthouse's is-crawlable reads the same set, less archive.org's).
var searchCrawlers = map[string]bool{"*": true, "googlebot": true, "bingbot": true, "duckduckbot": true}

// directives are a page's robots directives, in the order declared.
type directives struct {
	list []directive
}

// robotsDirectives parses every robots directive of p: its robots <meta>
// elements, then its X-Robots-Tag headers.
func (p *page) robotsDirectives() *directives {
	if p.rules != nil {
		return p.rules
	}
	d := &directives{}
	for _, m := range p.tags["meta"] {
		name := strings.ToLower(attr(m, "name"))
		if !robotsMetaNames[name] {
			continue
		}
		agent := name
		if name == "robots" {
			agent = "*"
		}
		d.list = append(d.list, parseDirectives(attr(m, "content"), agent, false, snippet(m))...)
	}
	for _, v := range p.f.Page.Header["X-Robots-Tag"] {
		d.list = append(d.list, parseDirectives(v, "*", true, "X-Robots-Tag: "+v)...)
	}
	p.rules = d
	return d
}

// parseDirectives splits one meta content or header value into directives
// for agent; a header value may name other crawlers.
func parseDirectives(s, agent string, header bool, from string) []directive {
	var out []directive
	for part := range strings.SplitSeq(s, ",") {
		t := strings.TrimSpace(part)
		if t == "" {
			continue
		}
		name, value, hasColon := strings.Cut(t, ":")
		name = strings.ToLower(strings.TrimSpace(name))
		if _, known := knownDirectives[name]; header && hasColon && !known && isAgentName(name) {
			// "googlebot: noindex": a crawler's name, then its first directive
			agent = name
			t = strings.TrimSpace(value)
			if t == "" {
				continue
			}
			name, value, hasColon = strings.Cut(t, ":")
			name = strings.ToLower(strings.TrimSpace(name))
		}
		if _, known := knownDirectives[name]; !known && len(out) > 0 {
			// A comma inside a date: "unavailable_after: Fri, 25 Jun 2027 ..."
			if last := &out[len(out)-1]; last.name == "unavailable_after" && last.agent == agent {
				if merged := last.value + ", " + t; validDate(merged) {
					last.value, last.problem = merged, ""
					continue
				}
			}
		}
		d := directive{agent: agent, name: name, value: strings.TrimSpace(value), from: from}
		d.problem = directiveProblem(d, hasColon)
		out = append(out, d)
	}
	return out
}

// isAgentName reports whether s can be a crawler's name (a product token:
// letters, digits, "-", "_", ".").
func isAgentName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// directiveProblem says why d is not a valid directive, or "".
func directiveProblem(d directive, hasColon bool) string {
	takesValue, known := knownDirectives[d.name]
	switch {
	case !known:
		return "unknown directive"
	case !takesValue && hasColon:
		return "takes no value"
	case takesValue && d.value == "":
		return "needs a value"
	}
	switch d.name {
	case "max-snippet", "max-video-preview":
		if n, err := strconv.Atoi(d.value); err != nil || n < -1 {
			return "needs a number of at least -1"
		}
	case "max-image-preview":
		switch strings.ToLower(d.value) {
		case "none", "standard", "large":
		default:
			return "needs none, standard or large"
		}
	case "unavailable_after":
		if !validDate(d.value) {
			return "needs a date (RFC 822, RFC 850 or ISO 8601)"
		}
	}
	return ""
}

// dateLayouts are the date forms unavailable_after accepts: RFC 822 and
// 1123, RFC 850, ISO 8601 (Google: "all widely adopted formats").
var dateLayouts = []string{
	time.RFC1123, time.RFC1123Z, time.RFC822, time.RFC822Z, time.RFC850, time.RFC3339,
	"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02", "2 Jan 2006 15:04:05 MST", "2 Jan 2006 15:04:05 -0700",
	"2 Jan 2006 15:04 MST", "2 Jan 2006", "January 2, 2006", "Monday, 02-Jan-2006 15:04:05 MST",
}

// parseDate reads a date in one of dateLayouts. A zone abbreviation the
// time package does not know (PST) counts as UTC.
func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func validDate(s string) bool {
	_, ok := parseDate(s)
	return ok
}

// blocks returns the directives that keep the page out of a search
// engine's index (noindex, none, an unavailable_after date before at), for
// the crawlers of searchCrawlers.
func (d *directives) blocks(at time.Time) (noindex, expired []directive) {
	for _, x := range d.list {
		if !searchCrawlers[x.agent] || x.problem != "" {
			continue
		}
		switch x.name {
		case "noindex", "none":
			noindex = append(noindex, x)
		case "unavailable_after":
			if t, ok := parseDate(x.value); ok && !at.IsZero() && !t.After(at) {
				expired = append(expired, x)
			}
		}
	}
	return noindex, expired
}

// String is the directive as a crawler reads it: "googlebot: max-snippet:20".
func (x directive) String() string {
	s := x.name
	if x.value != "" {
		s += ":" + x.value
	}
	if x.agent != "*" {
		s = x.agent + ": " + s
	}
	return s
}

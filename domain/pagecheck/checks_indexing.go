package pagecheck

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Checks of what tells crawlers whether and how to index the page: robots
// directives in markup and headers.

// checkNoindex fails when a robots <meta> or an X-Robots-Tag header keeps
// the page out of the index of every crawler or of a main search engine's
// (noindex, none, or an unavailable_after date that has passed).
func checkNoindex(p *page) Check {
	noindex, expired := p.robotsDirectives().blocks(p.f.At)
	if len(noindex)+len(expired) == 0 {
		return defNoindex.pass(nil, "Nothing keeps search engines from indexing the page.")
	}
	var o offenders
	var codes []string
	seen := map[string]bool{}
	for _, d := range append(noindex, expired...) {
		if !seen[d.from] { // "noindex, none" in one tag blames it once
			seen[d.from] = true
			o.add(d.from)
		}
	}
	msg := ""
	if len(noindex) > 0 {
		codes = append(codes, "noindex")
		msg = fmt.Sprintf("%s keeps %s from indexing the page.", source(noindex[0]), crawlerName(noindex[0].agent))
	}
	if len(expired) > 0 {
		codes = append(codes, "unavailable")
		msg += fmt.Sprintf(" %s asks %s to drop the page after %s, which has passed.", source(expired[0]), crawlerName(expired[0].agent), expired[0].value)
	}
	return defNoindex.fail(o.items[0], strings.TrimSpace(msg), codes...).blame(o)
}

// source names what declared d: a meta tag or the header.
func source(d directive) string {
	if strings.HasPrefix(d.from, "X-Robots-Tag:") {
		return "The X-Robots-Tag header"
	}
	return "A robots meta tag"
}

// crawlerName names the crawlers an agent stands for.
func crawlerName(agent string) string {
	if agent == "*" {
		return "every search engine"
	}
	return agent
}

// contradictions are pairs of directives that contradict each other.
var contradictions = [][2]string{{"index", "noindex"}, {"follow", "nofollow"}, {"all", "noindex"}, {"all", "nofollow"}, {"all", "none"}, {"index", "none"}, {"follow", "none"}}

// checkRobotsDirectives parses every robots directive of the page, for
// every crawler, and fails on those crawlers cannot apply: unknown names,
// invalid values, contradictions.
func checkRobotsDirectives(p *page) Check {
	ds := p.robotsDirectives().list
	if len(ds) == 0 {
		return defRobotsDirectives.pass(map[string]any{}, "The page sets no robots directives; crawlers apply their defaults (index, follow).")
	}
	byAgent := map[string][]string{}
	names := map[string]map[string]bool{}
	var codes []string
	code := func(c string) {
		if !slices.Contains(codes, c) {
			codes = append(codes, c)
		}
	}
	var o offenders
	for _, d := range ds {
		byAgent[d.agent] = append(byAgent[d.agent], d.String())
		if names[d.agent] == nil {
			names[d.agent] = map[string]bool{}
		}
		names[d.agent][d.name] = true
		switch {
		case d.problem == "unknown directive":
			code("unknown_directive")
			o.add(d.String() + " (" + d.problem + "), in " + d.from)
		case d.problem != "":
			code("invalid_value")
			o.add(d.String() + " (" + d.problem + "), in " + d.from)
		}
	}
	agents := make([]string, 0, len(names))
	for a := range names {
		agents = append(agents, a)
	}
	sort.Strings(agents)
	for _, a := range agents {
		for _, pair := range contradictions {
			if names[a][pair[0]] && names[a][pair[1]] {
				code("conflict")
				o.add(fmt.Sprintf("%s: %s and %s", crawlerName(a), pair[0], pair[1]))
			}
		}
	}
	value := map[string]any{}
	for a, shown := range byAgent {
		value[a] = list(shown)
	}
	if len(codes) > 0 {
		return defRobotsDirectives.fail(value, fmt.Sprintf("%d robots directive problem(s): crawlers ignore unknown or invalid directives and apply the most restrictive of contradicting ones.", o.total), codes...).blame(o)
	}
	return defRobotsDirectives.pass(value, fmt.Sprintf("The page's %d robots directive(s) are valid.", len(ds)))
}

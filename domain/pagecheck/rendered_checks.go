package pagecheck

import (
	"fmt"
	"strings"
)

// renderedChecker runs one rendered-only check.
type renderedChecker func(rc *renderCtx) Check

// renderedCheckers are the checks only AnalyseRendered runs, by category
// in report order; each comes after its category's other checks.
var renderedCheckers = []renderedChecker{
	checkLCP, checkCLS, checkTBT, checkFCP,
	checkRenderedContent, checkRenderedCanonical, checkRenderedRobots, checkBlockedResources,
	checkJSErrors, checkFailedRequests,
}

// The rendered-only checks. A lab metric passes only when it is good
// (needs improvement fails, as in Lighthouse's report, where only green
// passes); one the browser did not measure passes, unchecked. Importances:
// LCP, CLS and TBT (the lab stand-in for INP) are Core Web Vitals, medium
// like load_time; FCP is low, LCP covers most of it. A noindex or a
// canonical that scripts change is high, like noindex and above canonical:
// search engines may act on the raw HTML, before or without rendering.
// Content only scripts write is medium: Google renders it late, other
// search engines and AI crawlers not at all. Blocked resources are medium:
// a search engine renders without them. Console errors and failed
// requests are low: they break a page only sometimes.
var (
	defLCP               = definition{"lcp", "Largest Contentful Paint", Performance, Medium}
	defCLS               = definition{"cls", "Cumulative Layout Shift", Performance, Medium}
	defTBT               = definition{"tbt", "Total Blocking Time", Performance, Medium}
	defFCP               = definition{"fcp", "First Contentful Paint", Performance, Low}
	defRenderedContent   = definition{"rendered_content", "Content needing JavaScript", SEO, Medium}
	defRenderedCanonical = definition{"rendered_canonical", "Canonical changed by JavaScript", SEO, High}
	defRenderedRobots    = definition{"rendered_robots", "Robots directives changed by JavaScript", SEO, High}
	defBlockedResources  = definition{"blocked_resources", "Resources blocked by robots.txt", SEO, Medium}
	defJSErrors          = definition{"js_errors", "JavaScript errors", Miscellaneous, Low}
	defFailedRequests    = definition{"failed_requests", "Failed requests", Miscellaneous, Low}
)

// metricCheck is the check d of the lab metric m, named name, with unit
// ("ms" or "") and thresholds good and poor.
func metricCheck(d definition, m Metric, name, unit string, good, poor float64, extra map[string]any) Check {
	value := map[string]any{"value": m.Value, "grade": string(m.Grade)}
	for k, v := range extra {
		value[k] = v
	}
	show := func(v float64) string { return fmt.Sprintf("%g%s", v, unitSuffix(unit)) }
	switch m.Grade {
	case GradeUnmeasured:
		return d.pass(value, "The browser did not measure the "+name+"; not checked.")
	case GradeGood:
		return d.pass(value, fmt.Sprintf("The %s is %s, good (%s at most).", name, show(m.Value), show(good)))
	case GradeNeedsImprovement:
		return d.fail(value, fmt.Sprintf("The %s is %s; good is %s at most.", name, show(m.Value), show(good)), "needs_improvement")
	}
	return d.fail(value, fmt.Sprintf("The %s is %s, poor (beyond %s); good is %s at most.", name, show(m.Value), show(poor), show(good)), "poor")
}

func unitSuffix(unit string) string {
	if unit == "" {
		return ""
	}
	return " " + unit
}

func checkLCP(rc *renderCtx) Check {
	lab := rc.rendering.Lab
	c := metricCheck(defLCP, lab.LCP, "Largest Contentful Paint", "ms", LCPGoodMs, LCPPoorMs, map[string]any{"element": orNil(lab.LCPElement)})
	if !c.Passed && lab.LCPElement != "" {
		c = c.blame(offenders{items: []string{lab.LCPElement}, total: 1})
	}
	return c
}

func checkCLS(rc *renderCtx) Check {
	return metricCheck(defCLS, rc.rendering.Lab.CLS, "Cumulative Layout Shift", "", CLSGood, CLSPoor, nil)
}

func checkTBT(rc *renderCtx) Check {
	return metricCheck(defTBT, rc.rendering.Lab.TBT, "Total Blocking Time", "ms", TBTGoodMs, TBTPoorMs, nil)
}

func checkFCP(rc *renderCtx) Check {
	return metricCheck(defFCP, rc.rendering.Lab.FCP, "First Contentful Paint", "ms", FCPGoodMs, FCPPoorMs, nil)
}

// checkRenderedContent fails when scripts write much of the page's text
// (Rendering.ContentAddedByJS), add links the raw HTML lacks, or change
// its title.
func checkRenderedContent(rc *renderCtx) Check {
	r := rc.rendering
	value := map[string]any{"raw_words": num(rc.raw.Words), "rendered_words": num(rc.now.Words), "added_links": num(r.AddedLinksTotal)}
	var codes []string
	var why []string
	if r.ContentAddedByJS {
		codes = append(codes, "content_added")
		why = append(why, fmt.Sprintf("scripts write most of its text (%d words rendered, %d in the HTML)", rc.now.Words, rc.raw.Words))
	}
	if r.LinksAddedByJS {
		codes = append(codes, "links_added")
		why = append(why, fmt.Sprintf("%d link(s) exist only once scripts ran", r.AddedLinksTotal))
	}
	if r.TitleChanged {
		codes = append(codes, "title_changed")
		why = append(why, "scripts change its title")
	}
	if len(codes) == 0 {
		return defRenderedContent.pass(value, "The HTML holds the page's text, links and title: crawlers that do not run scripts see the page.")
	}
	o := offenders{items: r.AddedLinks, total: r.AddedLinksTotal}
	return defRenderedContent.fail(value, "Crawlers that do not run scripts miss part of the page: "+strings.Join(why, "; ")+".", codes...).blame(o)
}

// checkRenderedCanonical fails when the rendered DOM's canonical URL is
// not the raw HTML's.
func checkRenderedCanonical(rc *renderCtx) Check {
	a, b := rc.raw.Canonical, rc.now.Canonical
	value := map[string]any{"raw": orNil(a), "rendered": orNil(b)}
	switch {
	case a == b:
		return defRenderedCanonical.pass(value, "Scripts leave the canonical URL as the HTML declares it.")
	case a == "":
		return defRenderedCanonical.fail(value, "Only scripts declare the canonical URL ("+b+").", "added").blame(offenders{items: []string{b}, total: 1})
	case b == "":
		return defRenderedCanonical.fail(value, "Scripts remove the canonical URL the HTML declares ("+a+").", "removed").blame(offenders{items: []string{a}, total: 1})
	}
	return defRenderedCanonical.fail(value, "Scripts change the canonical URL from "+a+" to "+b+".", "changed").blame(offenders{items: []string{a, b}, total: 2})
}

// checkRenderedRobots fails when noindex differs between the raw HTML and
// the rendered DOM (the headers are the same response's on both sides).
func checkRenderedRobots(rc *renderCtx) Check {
	value := map[string]any{"raw": rc.rawRobots, "rendered": rc.p.robotsText(), "raw_noindex": rc.raw.Noindex, "rendered_noindex": rc.now.Noindex}
	switch {
	case rc.raw.Noindex == rc.now.Noindex:
		return defRenderedRobots.pass(value, "Scripts do not change whether the page may be indexed.")
	case rc.now.Noindex:
		return defRenderedRobots.fail(value, "Scripts add a noindex the HTML does not have: the page drops out of search results once rendered.", "noindex_added")
	}
	return defRenderedRobots.fail(value, "Scripts remove the HTML's noindex: search engines may not render a noindex page, so it stays out.", "noindex_removed")
}

// checkBlockedResources fails when the page loads resources of its own
// origin that robots.txt disallows (Loaded.Blocked).
func checkBlockedResources(rc *renderCtx) Check {
	l := rc.rendering.Loaded
	urls := make([]string, len(l.Blocked))
	var o offenders
	for i, b := range l.Blocked {
		urls[i] = b.URL
		o.add(b.URL + " (" + b.Type + ", " + b.Rule + ")")
	}
	o.total = l.BlockedTotal
	if l.BlockedTotal > 0 {
		return defBlockedResources.fail(list(urls), fmt.Sprintf("robots.txt keeps crawlers from %d resource(s) the page loads, so search engines render it without them.", l.BlockedTotal), "blocked").blame(o)
	}
	return defBlockedResources.pass(list(nil), "robots.txt lets crawlers load the page's own resources.")
}

// checkJSErrors fails on console errors and uncaught exceptions.
func checkJSErrors(rc *renderCtx) Check {
	l := rc.rendering.Loaded
	value := map[string]any{"errors": num(l.Errors), "exceptions": num(l.Exceptions)}
	if l.Errors+l.Exceptions == 0 {
		return defJSErrors.pass(value, "The page logged no console error and threw no uncaught exception.")
	}
	var codes []string
	if l.Exceptions > 0 {
		codes = append(codes, "exceptions")
	}
	if l.Errors > 0 {
		codes = append(codes, "console_errors")
	}
	var o offenders
	for _, c := range l.Console {
		o.add(c.Kind + ": " + c.Text)
	}
	o.total = l.Errors + l.Exceptions
	return defJSErrors.fail(value, fmt.Sprintf("The page threw %d uncaught exception(s) and logged %d console error(s).", l.Exceptions, l.Errors), codes...).blame(o)
}

// checkFailedRequests fails on requests that answered 400 or more or got
// no response (requests Pinsight's guard refused are listed in Loaded,
// not failed here).
func checkFailedRequests(rc *renderCtx) Check {
	l := rc.rendering.Loaded
	value := map[string]any{"requests": num(l.Requests), "failed": num(l.FailedTotal), "refused": num(l.RefusedTotal)}
	if l.FailedTotal == 0 {
		return defFailedRequests.pass(value, fmt.Sprintf("The page's %d request(s) all answered.", l.Requests))
	}
	var o offenders
	for _, f := range l.Failed {
		if f.Status > 0 {
			o.add(fmt.Sprintf("%s (%d)", f.URL, f.Status))
		} else {
			o.add(f.URL + " (" + f.Reason + ")")
		}
	}
	o.total = l.FailedTotal
	return defFailedRequests.fail(value, fmt.Sprintf("%d of the page's %d request(s) failed.", l.FailedTotal, l.Requests), "failed").blame(o)
}

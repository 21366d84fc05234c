package crawls

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// hostOf is the host name of a URL, "" when it has none.
func hostOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Hostname()
}

// get requests u once through the session, in a slot of the crawl's
// concurrency and after the pause: the crawl's headers go with it only
// when u is on the start URL's host (Scope.SameHost), never elsewhere.
func (r *run) get(ctx context.Context, u string, maxBytes int64) (*webpage.Linked, error) {
	select {
	case r.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-r.sem }()
	if err := r.gate.wait(ctx); err != nil {
		return nil, err
	}
	var headers []crawl.Header
	if r.scope.SameHost(u) {
		headers = r.c.Settings.Headers
	}
	return r.sess.Get(ctx, u, headers, maxBytes)
}

// follow requests u and its redirects hop by hop (at most
// crawl.MaxRedirects, each through get, so each hop gets the headers only
// when it is on the start host), staying on the site: a redirect off it
// ends the chain there. It returns the last answer (nil when none), the
// URLs that answered a redirect, whether they looped, and why nothing
// answered.
func (r *run) follow(ctx context.Context, u string, maxBytes int64) (last *webpage.Linked, hops []string, loop bool, failure error) {
	a := r.chase(ctx, u, maxBytes, false)
	return a.last, a.hops, a.loop, a.err
}

// answer is where a URL and its redirects led.
type answer struct {
	last *webpage.Linked // the last response; nil when none
	hops []string        // the URLs that answered a redirect, in order
	loop bool            // the redirects never reached a page
	err  error           // why nothing answered
	// known is the crawl's record of a later hop, which the chain
	// reached without fetching it again (last is the hop before).
	known *crawl.Page
}

// chase is follow; with recorded, a later hop the crawl has a record of
// (as a frontier URL of its own) is not fetched again: the chain ends
// there with that record's answer and redirects.
func (r *run) chase(ctx context.Context, u string, maxBytes int64, recorded bool) answer {
	var a answer
	seen := map[string]bool{}
	cur := u
	for {
		if seen[cur] || len(a.hops) > crawl.MaxRedirects {
			a.loop = true
			return a
		}
		seen[cur] = true
		if recorded && cur != u {
			rec, ok, err := r.cs.store.RecordOf(ctx, r.c.ID, cur)
			if err == nil && ok && !rec.BlockedByRobots {
				for _, h := range rec.Redirects {
					a.loop = a.loop || seen[h]
					seen[h] = true
				}
				a.hops = append(a.hops, rec.Redirects...)
				a.loop = a.loop || rec.RedirectLoop || len(a.hops) > crawl.MaxRedirects
				a.known = &rec
				return a
			}
		}
		l, err := r.get(ctx, cur, maxBytes)
		if err != nil {
			a.err = err
			return a
		}
		a.last = l
		loc := ""
		if v := l.Response.Header["Location"]; len(v) > 0 {
			loc = v[0]
		}
		if s := l.Response.Status; s < 300 || s >= 400 || loc == "" {
			return a
		}
		next, err := crawl.Resolve(cur, loc)
		if err != nil || !r.scope.OnSite(next) {
			return a // off the site (or nowhere): not followed
		}
		a.hops = append(a.hops, cur)
		cur = next
	}
}

// fetchPage fetches one URL of the frontier and audits it as reports'
// pages are (pagecheck.Analyse, with the site's robots.txt and 404 probe),
// returning its record and the URLs it leads to. A URL that redirects is
// recorded with its hops and not audited (its content is its target's);
// the target it reached, when the crawl follows it, is recorded (and
// audited) from that last answer too, so that it is not fetched again,
// and a target already recorded is read from its record instead. ok is
// false when the run stopped midway (nothing to record).
func (r *run) fetchPage(ctx context.Context, fu ports.FrontierURL) (pages []ports.FetchedPage, found []ports.FrontierURL, ok bool) {
	at := time.Now()
	p := crawl.Page{URL: fu.URL, FinalURL: fu.URL, Depth: fu.Depth}
	var fp ports.FetchedPage
	fp.FetchedAt = r.cs.clock()
	a := r.chase(ctx, fu.URL, 0, true)
	if ctx.Err() != nil {
		return nil, nil, false
	}
	p.Redirects, p.RedirectLoop = a.hops, a.loop
	last := a.last
	switch {
	case a.known != nil:
		p.Status, p.FinalURL, p.Failure = a.known.Status, a.known.FinalURL, a.known.Failure
		last = nil
	case last != nil:
		p.Status = last.Response.Status
		if u, nerr := crawl.Normalize(last.URL); nerr == nil {
			p.FinalURL = u
		}
		fp.Bytes = int64(len(last.Response.Body))
	}
	if a.err != nil {
		p.Status, p.Failure = 0, failureOf(a.err)
	}
	fp.ResponseTime = time.Since(at)
	if a.err == nil && !a.loop && p.FinalURL != p.URL && r.scope.Follows(p.FinalURL) {
		found = append(found, ports.FrontierURL{URL: p.FinalURL, Depth: fu.Depth, Source: fu.URL})
		if last != nil && !r.blocked(p.FinalURL) {
			// The target answered the last hop: its own record.
			tp := crawl.Page{URL: p.FinalURL, FinalURL: p.FinalURL, Depth: fu.Depth, Status: p.Status}
			target := ports.FetchedPage{FetchedAt: fp.FetchedAt, ResponseTime: fp.ResponseTime, Bytes: fp.Bytes}
			if last.Document != nil && tp.Status >= 200 && tp.Status < 300 {
				more, ok := r.audit(ctx, &target, &tp, last, at, ports.FrontierURL{URL: p.FinalURL, Depth: fu.Depth})
				if !ok {
					return nil, nil, false
				}
				found = append(found, more...)
			}
			target.Page = tp
			pages = append(pages, target)
		}
	}
	if a.err == nil && !a.loop && last != nil && len(a.hops) == 0 && last.Document != nil && p.Status >= 200 && p.Status < 300 {
		more, ok := r.audit(ctx, &fp, &p, last, at, fu)
		if !ok {
			return nil, nil, false
		}
		found = append(found, more...)
	}
	fp.Page = p
	return append(pages, fp), found, true
}

// audit runs the page audit of an HTML page (rendered too when the
// crawl's render setting asks for it: render) and reads its facts into p,
// the rendered DOM's when a browser rendered it; a link only that DOM has
// is found marked FoundByJS. ok is false when the run stopped meanwhile.
func (r *run) audit(ctx context.Context, fp *ports.FetchedPage, p *crawl.Page, last *webpage.Linked, at time.Time, fu ports.FrontierURL) (found []ports.FrontierURL, ok bool) {
	f := &webpage.Fetched{RequestedURL: fu.URL, At: at, Page: *last.Response, Document: last.Document, Robots: r.robots, NotFound: r.probe}
	x := r.site.Index(f) // one index of the page for its follow-ups, audit and facts
	next := x.FollowUps()
	if next.Canonical != "" {
		f.Canonical = r.linked(ctx, next.Canonical)
	}
	for _, a := range next.Alternates {
		f.Alternates = append(f.Alternates, *r.linked(ctx, a))
	}
	a := x.Analyse(r.cs.cfg.Weights)
	facts := x.Facts()
	var raw map[string]bool // the served HTML's links, when the facts are the rendered DOM's
	if r.c.Settings.Renders() {
		rd, ok := r.render(ctx, f, a)
		if !ok {
			return nil, false
		}
		a = rd.analysis
		fp.Rendering, p.Render = a.Rendering, crawl.RenderOf(a.Rendering)
		if rd.page != nil {
			raw = make(map[string]bool, min(len(facts.Links), crawl.MaxLinksPerPage))
			for _, l := range facts.Links[:min(len(facts.Links), crawl.MaxLinksPerPage)] {
				if u, err := crawl.Normalize(l); err == nil {
					raw[u] = true
				}
			}
			facts = r.site.Index(rd.page).Facts()
		}
	}
	fp.Score, fp.Rating, fp.Results = a.Score, a.Rating, a.Results
	p.Title, p.Description, p.Noindex, p.Lang = facts.Title, facts.Description, facts.Noindex, strings.ToLower(facts.Lang)
	p.Fingerprint = crawl.Fingerprint(facts.Text)
	depth := crawl.NoDepth
	if fu.Depth != crawl.NoDepth && fu.Depth < r.c.Settings.MaxDepth {
		depth = fu.Depth + 1
	}
	// At most crawl.MaxLinksPerPage links of each kind are read; the
	// rest are counted.
	found = make([]ports.FrontierURL, 0, min(len(facts.Links), crawl.MaxLinksPerPage)+min(len(facts.Hreflang), crawl.MaxLinksPerPage)+1)
	discover := func(u string, js bool) {
		if depth != crawl.NoDepth && r.scope.Follows(u) {
			found = append(found, ports.FrontierURL{URL: u, Depth: depth, Source: fu.URL, FoundByJS: js})
		}
	}
	if c, err := crawl.Normalize(facts.Canonical); err == nil && r.scope.OnSite(c) {
		p.Canonical = c
		discover(c, false)
	}
	for i, h := range facts.Hreflang {
		if len(p.Hreflang) == crawl.MaxLinksPerPage {
			fp.LinksNotRead += len(facts.Hreflang) - i
			break
		}
		if u, err := crawl.Normalize(h); err == nil && r.scope.OnSite(u) {
			p.Hreflang = append(p.Hreflang, u)
			discover(u, false)
		}
	}
	seen := make(map[string]bool, min(len(facts.Links), crawl.MaxLinksPerPage))
	outlinks := make([]string, 0, min(len(facts.Links), crawl.MaxLinksPerPage))
	for i, l := range facts.Links {
		if len(outlinks) == crawl.MaxLinksPerPage {
			fp.LinksNotRead += len(facts.Links) - i
			break
		}
		u, err := crawl.Normalize(l)
		if err != nil || seen[u] || !r.scope.OnSite(u) {
			continue
		}
		seen[u] = true
		outlinks = append(outlinks, u)
		discover(u, raw != nil && !raw[u])
	}
	if len(outlinks) > 0 { // none stays nil
		p.Outlinks = outlinks
	}
	return found, true
}

// linked requests a follow-up of the audit once, without following a
// redirect; its Response stays nil when it does not answer.
func (r *run) linked(ctx context.Context, u string) *webpage.Linked {
	l, err := r.get(ctx, u, 256<<10)
	if err != nil {
		return &webpage.Linked{URL: u}
	}
	l.URL = u
	return l
}

// failureOf is why nothing answered, as a broken link's detail says it.
func failureOf(err error) string {
	var fe *webpage.FetchError
	if errors.As(err, &fe) {
		return fe.Reason
	}
	return "no answer"
}

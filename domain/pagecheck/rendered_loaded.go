package pagecheck

import (
	"net/url"
	"slices"
	"strings"

	"github.com/pinsight/pinsight/domain/webpage"
)

// Loaded is what a rendered page loaded: its requests by type, those that
// failed, were refused or are disallowed by robots.txt, and its console
// errors. Lists hold at most maxValueItems entries (strings cut to
// maxValueRunes); the totals count them all.
type Loaded struct {
	// Requests counts the page's requests, those the renderer left out
	// (webpage.Rendered.RequestsOmitted) included.
	Requests int `json:"requests"`
	// RequestsOmitted counts the requests the renderer did not record
	// (not in ByType, Failed, Refused or Blocked).
	RequestsOmitted int `json:"requests_omitted"`
	// ByType counts the recorded requests and their bytes by resource
	// type ("other" when the browser gave none), sorted by type, the first
	// maxValueItems types.
	ByType []TypeLoad `json:"by_type,omitempty"`
	// Bytes is what the page's requests took on the wire (Timing.Bytes,
	// or the sum of the requests' when the renderer gave none).
	Bytes int64 `json:"bytes"`
	// Failed are the requests that answered 400 or more or got no
	// response, refused ones aside.
	Failed      []FailedRequest `json:"failed,omitempty"`
	FailedTotal int             `json:"failed_total"`
	// Refused are the URLs Pinsight's guard refused to request
	// (webpage.Request.Refused).
	Refused      []string `json:"refused,omitempty"`
	RefusedTotal int      `json:"refused_total"`
	// Blocked are the requests to the page's own origin that its
	// robots.txt disallows for every crawler (the * group, as the robots
	// check reads it): a search engine renders the page without them. A
	// request to another origin is governed by that origin's robots.txt,
	// not read here.
	Blocked      []BlockedRequest `json:"blocked,omitempty"`
	BlockedTotal int              `json:"blocked_total"`
	// Console are the console errors and uncaught exceptions, in order;
	// Errors and Exceptions count each kind.
	Console    []ConsoleMessage `json:"console,omitempty"`
	Errors     int              `json:"errors"`
	Exceptions int              `json:"exceptions"`
}

// ConsoleMessage is a console error or an uncaught exception of a
// rendered page (webpage.ConsoleEntry): Kind is "error" or "exception",
// URL the script it came from ("" when unknown).
type ConsoleMessage struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
	URL  string `json:"url,omitempty"`
}

// TypeLoad is the requests of one resource type.
type TypeLoad struct {
	Type  string `json:"type"`
	Count int    `json:"count"`
	Bytes int64  `json:"bytes"`
}

// FailedRequest is a request that failed: Status is the HTTP status (0
// when there was no response) and Reason the browser's error text, or
// "http_error" for a status of 400 or more.
type FailedRequest struct {
	URL    string `json:"url"`
	Type   string `json:"type"`
	Status int    `json:"status"`
	Reason string `json:"reason"`
}

// BlockedRequest is a request robots.txt disallows: Rule is the matching
// rule ("Disallow: /js/").
type BlockedRequest struct {
	URL  string `json:"url"`
	Type string `json:"type"`
	Rule string `json:"rule"`
}

// abortedRequest is the browser's error text for a request it cancelled
// itself (a lazy image scrolled past, a prefetch dropped, a media range):
// not a failure of the page's.
const abortedRequest = "net::ERR_ABORTED"

// failed reports whether q failed: it got no response (Failed is set),
// save when the browser aborted it, or it answered 400 or more. A refused
// request is not a failure of the page's, and a request without a status
// or an error (pending when the render stopped) is not judged.
func failed(q webpage.Request) bool {
	if q.Refused {
		return false
	}
	return q.Status >= 400 || (q.Failed != "" && q.Failed != abortedRequest)
}

// loaded sums up what rc's rendering loaded.
func (rc *renderCtx) loaded() Loaded {
	r := rc.r
	out := Loaded{Requests: len(r.Requests) + r.RequestsOmitted, RequestsOmitted: r.RequestsOmitted, Bytes: r.Timing.Bytes}
	types := map[string]*TypeLoad{}
	var sum int64
	for _, q := range r.Requests {
		t := q.Type
		if t == "" {
			t = "other"
		}
		tl := types[t]
		if tl == nil {
			tl = &TypeLoad{Type: cut(t, maxValueRunes)}
			types[t] = tl
		}
		tl.Count++
		tl.Bytes += q.Bytes
		sum += q.Bytes
		switch {
		case q.Refused:
			out.RefusedTotal++
			if len(out.Refused) < maxValueItems {
				out.Refused = append(out.Refused, cut(q.URL, maxValueRunes))
			}
		case failed(q):
			out.FailedTotal++
			if len(out.Failed) < maxValueItems {
				reason := q.Failed
				if reason == "" {
					reason = "http_error"
				}
				out.Failed = append(out.Failed, FailedRequest{cut(q.URL, maxValueRunes), cut(t, maxValueRunes), q.Status, cut(reason, maxValueRunes)})
			}
		}
		if rule := rc.disallowed(q.URL); rule != "" {
			b := BlockedRequest{cut(q.URL, maxValueRunes), cut(t, maxValueRunes), cut(rule, maxValueRunes)}
			out.BlockedTotal++
			if len(out.Blocked) < maxValueItems {
				out.Blocked = append(out.Blocked, b)
			}
		}
	}
	if out.Bytes == 0 {
		out.Bytes = sum
	}
	for _, tl := range types {
		out.ByType = append(out.ByType, *tl)
	}
	slices.SortFunc(out.ByType, func(a, b TypeLoad) int { return strings.Compare(a.Type, b.Type) })
	if len(out.ByType) > maxValueItems {
		out.ByType = out.ByType[:maxValueItems:maxValueItems]
	}
	for _, c := range r.Console {
		switch c.Kind {
		case "exception":
			out.Exceptions++
		default:
			out.Errors++
		}
		if len(out.Console) < maxValueItems {
			out.Console = append(out.Console, ConsoleMessage{Kind: cut(c.Kind, maxValueRunes), Text: cut(c.Text, maxValueRunes), URL: cut(c.URL, maxValueRunes)})
		}
	}
	return out
}

// disallowed is the robots.txt rule that keeps crawlers from the request
// URL u, when u is on the page's own origin (robots.txt is per origin);
// "" when it is allowed, elsewhere, or there is no robots.txt. The main
// document is judged by the robots check, not here.
func (rc *renderCtx) disallowed(u string) string {
	if rc.group == nil {
		rt, ok := rc.p.robots()
		if !ok {
			return ""
		}
		g := rt.For("*")
		rc.group = &g
	}
	q, err := url.Parse(u)
	if err != nil || !strings.EqualFold(q.Scheme, rc.p.url.Scheme) || !strings.EqualFold(q.Host, rc.p.url.Host) {
		return ""
	}
	if normURL(q) == normURL(rc.p.url) {
		return ""
	}
	return rc.group.Disallowed(q.RequestURI())
}

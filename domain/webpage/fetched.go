package webpage

import "time"

// Response is one HTTP response as the analyser sees it. Header keys are in
// canonical form (net/textproto.CanonicalMIMEHeaderKey).
type Response struct {
	URL        string              // final URL, after redirects
	Status     int                 // HTTP status code
	Header     map[string][]string // response headers
	Body       []byte              // decoded content, converted to UTF-8 for text
	Truncated  bool                // the body was cut at the size cap
	WireBytes  int64               // bytes received on the wire (compressed size)
	Encoding   string              // Content-Encoding as received ("" for none)
	Redirects  []string            // URLs that redirected, in order, before URL
	Elapsed    time.Duration       // from the request to the last byte
	RemoteAddr string              // the address actually dialled (ip:port)
}

// Fetched is everything the checks read about one URL: the page (with its
// parsed document), robots.txt, a probe of a random path that should answer
// 404, and the pages the page names that FollowUps asked for. Robots and
// NotFound are nil when they could not be fetched.
type Fetched struct {
	RequestedURL string
	// At is when the page was requested; the checks compare dates the
	// page declares (unavailable_after) with it. Zero when unknown: such
	// dates are then neither past nor future.
	At       time.Time
	Page     Response
	Document *Node // the page's HTML, parsed; nil when it is not HTML
	Robots   *Response
	NotFound *Response
	// Canonical is the answer to FollowUps' Canonical, requested once
	// without following redirects; nil when FollowUps named none.
	Canonical *Linked
	// Alternates are the answers to FollowUps' Alternates, in its order,
	// each requested once without following redirects.
	Alternates []Linked
}

// Linked is a page the analysed page names (its canonical URL, a language
// alternate), requested once without following redirects.
type Linked struct {
	URL      string    // the URL requested, as FollowUps gave it
	Response *Response // nil when it did not answer (deadline, refused, throttled)
	Document *Node     // its HTML, parsed; nil when it is not HTML or did not answer
}

// FinalURL is the URL the page was served from after redirects.
func (f *Fetched) FinalURL() string { return f.Page.URL }

package site

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
// parsed document), robots.txt and a probe of a random path that should
// answer 404. Robots and NotFound are nil when they could not be fetched.
type Fetched struct {
	RequestedURL string
	Page         Response
	Document     *Node // the page's HTML, parsed; nil when it is not HTML
	Robots       *Response
	NotFound     *Response
}

// FinalURL is the URL the page was served from after redirects.
func (f *Fetched) FinalURL() string { return f.Page.URL }

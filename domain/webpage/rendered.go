package webpage

import "time"

// Rendered is a page as a browser built it: the DOM after its scripts ran
// and the network settled, what the page loaded on the way, the browser's
// own lab timings and a screenshot of the first screen.
type Rendered struct {
	// URL is the document's URL in the browser once it settled (after
	// redirects and any history change a script made).
	URL string
	// Status is the HTTP status of the main document's response.
	Status int
	// HTML is the serialised DOM after rendering (document.documentElement's
	// outerHTML with its doctype), at most the renderer's size cap.
	HTML []byte
	// Document is HTML, parsed.
	Document *Node
	// Requests are the requests the page made, main document first, in
	// order (at most the renderer's cap; RequestsOmitted counts the rest).
	Requests        []Request
	RequestsOmitted int
	// Console are the console errors and uncaught exceptions, in order
	// (bounded like Requests).
	Console []ConsoleEntry
	// Timing holds the lab measurements of the load.
	Timing Timing
	// Screenshot is a JPEG of the first screen (the viewport); nil when it
	// could not be taken. FullPage is one of the whole page, when asked for.
	Screenshot, FullPage []byte
	// Elapsed is the render's time, from navigation to the snapshot.
	Elapsed time.Duration
	// Settled is false when the network never went idle before the
	// renderer's deadline: the DOM is as it stood then.
	Settled bool
}

// Request is one network request of a rendered page.
type Request struct {
	URL string
	// Type is the resource type as the browser names it, lower case:
	// "document", "stylesheet", "image", "media", "font", "script",
	// "xhr", "fetch", "websocket", "other", ...
	Type string
	// Status is the response's HTTP status; 0 when it got none.
	Status int
	// Failed says why the request got no response ("" when it got one):
	// the browser's error text, or Refused's reason.
	Failed string
	// Refused is true when Pinsight's guard refused the request (an
	// address, port or scheme the fetcher refuses too).
	Refused bool
	// Bytes is what the response took on the wire (0 when unknown).
	Bytes int64
}

// ConsoleEntry is a console error or an uncaught exception of a page.
type ConsoleEntry struct {
	// Kind is "error" (console.error and errors the browser logs) or
	// "exception" (an uncaught exception or unhandled rejection).
	Kind string
	Text string
	// URL is the script the entry came from, when known.
	URL string
}

// Timing is a render's lab measurements, from the browser's own
// performance APIs (Navigation Timing, Paint Timing, the Largest
// Contentful Paint, Layout Shift and Long Tasks entries). A duration of 0
// means not measured (the page never painted, say).
type Timing struct {
	TTFB time.Duration // responseStart of the main document
	FCP  time.Duration // first-contentful-paint
	LCP  time.Duration // the last largest-contentful-paint candidate
	// LCPElement is the LCP element as a short source snippet ("" when
	// none).
	LCPElement string
	// CLS is the cumulative layout shift: the largest session window of
	// layout-shift values without recent input, as Lighthouse counts it.
	CLS float64
	// TBT is the total blocking time: the time beyond 50 ms of each long
	// task after FCP.
	TBT time.Duration
	// DOMNodes is the number of elements in the rendered DOM.
	DOMNodes int
	// Bytes is the sum of the page's requests' Bytes.
	Bytes int64
}

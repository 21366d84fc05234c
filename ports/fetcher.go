package ports

import (
	"context"
	"net/netip"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/webpage"
)

// PageFetcher brings a page in for analysis: the page itself (parsed when it
// is HTML), robots.txt, a probe of a random path and what pagecheck.FollowUps
// names (the canonical URL and a few hreflang alternates, each requested
// once without following redirects), all within ctx's deadline. A target
// that answers at all (any status) is a success; no answer, or a refused
// target (SSRF guard, scheme, port), is a *webpage.FetchError. The secondary
// requests never fail the fetch: one that does not answer is left nil.
//
// admit, when not nil, is asked before every connection the fetch opens,
// once the SSRF guard has accepted the address (a refused target is never
// admitted, so never counted). Connections are not shared between fetches,
// so every fetch is admitted for each address it contacts. An error from
// admit stops that request and Fetch returns it as it is, not as a
// *webpage.FetchError: the caller tells its own refusal (a throttle) from a
// failure of the target.
type PageFetcher interface {
	Fetch(ctx context.Context, rawURL string, admit Admit) (*webpage.Fetched, error)
}

// Admit decides whether a fetch may connect to target.
type Admit func(ctx context.Context, target Target) error

// Target is a connection a PageFetcher is about to open.
type Target struct {
	// Host is the host name being connected to, as net/http dials it
	// (IDNA's ASCII form, case as written; an IP literal for a numeric
	// host).
	Host string
	// Addr is the address the host resolved to and the guard accepted.
	Addr netip.Addr
}

// SiteFetcher fetches the URLs of a site crawl through the same SSRF guard
// as PageFetcher (every URL checked, every address dialled checked).
type SiteFetcher interface {
	// Check refuses, without requesting it, a start URL the guard would
	// refuse (scheme, port, an address literal or a name of this machine,
	// a host name that does not exist or resolves only to refused
	// addresses): a *webpage.FetchError, Refused, whose reason names the
	// setting that lets it through when one does. A lookup that fails
	// otherwise is not refused (it may pass by the time of the crawl).
	Check(ctx context.Context, rawURL string) error
	// Session opens the connections of one crawl: its requests may share
	// connections with each other, never with another session or fetch.
	// Close it at the crawl's end.
	Session() SiteSession
}

// SiteSession requests one crawl's URLs.
type SiteSession interface {
	// Get requests rawURL once, without following a redirect (a redirect
	// is the answer: the crawler follows it hop by hop), sending headers
	// with it (and nothing of them anywhere else), and reads at most
	// maxBytes of decoded body (0: the fetcher's page cap). Document is
	// the body parsed when it is HTML. No answer, or a refused target, is
	// a *webpage.FetchError.
	Get(ctx context.Context, rawURL string, headers []crawl.Header, maxBytes int64) (*webpage.Linked, error)
	// Close closes the session's idle connections.
	Close()
}

package ports

import (
	"context"

	"github.com/pinsight/pinsight/domain/site"
)

// PageFetcher brings a page in for analysis: the page itself (parsed when it
// is HTML), robots.txt and a probe of a random path, all within ctx's
// deadline. A target that answers at all (any status) is a success; no
// answer, or a refused target (SSRF guard, scheme, port), is a
// *site.FetchError.
type PageFetcher interface {
	Fetch(ctx context.Context, rawURL string) (*site.Fetched, error)
}

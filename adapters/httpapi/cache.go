package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/postal"
)

// cacheMaxAge is how long clients may cache postal data responses that
// carry no review counts (villages, states, districts, the dataset).
const cacheMaxAge = "public, max-age=86400"

// countsMaxAge is how long clients may cache postal answers carrying
// office records, whose review and like counts change with every review.
const countsMaxAge = "public, max-age=300"

// countsMetadata is the huma.Operation.Metadata key naming which counts an
// operation's answer carries (countsOf).
const countsMetadata = "pinsight-counts"

// Which counts an answer carries, for its ETag.
const (
	countsPincode = "pincode" // the offices of the {pincode} path parameter
	countsOffice  = "office"  // the office of the {id} path parameter
	countsAny     = "any"     // offices of any pincode
)

// countsOf is the Metadata of an operation whose answer carries the review
// counts of scope's offices.
func countsOf(scope string) map[string]any { return map[string]any{countsMetadata: scope} }

// cacheable marks successful postal GET responses cacheable with a weak
// ETag, and answers 304 to a matching If-None-Match. Answers without office
// records are cached for a day, their ETag the loaded dataset's version.
// Answers with office records (operations with countsOf metadata) are
// cached for 5 minutes, their ETag the dataset version and the counts
// version of the answer's pincode (of every pincode for lists spanning
// several), so a review or like changes the ETag of exactly the answers
// holding that office's pincode. Error responses carry neither header: a
// 404 or 422 must not be cached as if it were data.
func cacheable(p *directory.Directory) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		if ctx.Method() != http.MethodGet && ctx.Method() != http.MethodHead {
			next(ctx)
			return
		}
		info, err := p.Info(ctx.Context())
		if err != nil {
			next(ctx)
			return
		}
		etag, maxAge := `W/"`+info.Version+`"`, cacheMaxAge
		if scope, _ := ctx.Operation().Metadata[countsMetadata].(string); scope != "" {
			v, err := countsVersion(ctx.Context(), p, scope, ctx.Param)
			if err != nil { // the answer will say what went wrong, uncached
				next(ctx)
				return
			}
			etag, maxAge = `W/"`+info.Version+"-"+v+`"`, countsMaxAge
		}
		if etagMatches(ctx.Header("If-None-Match"), etag) {
			ctx.SetHeader("ETag", etag)
			ctx.SetHeader("Cache-Control", maxAge)
			ctx.SetStatus(http.StatusNotModified)
			return
		}
		next(&cachingContext{humaContext: ctx, etag: etag, maxAge: maxAge})
	}
}

// countsVersion names the counts an answer of scope carries: "p" and the
// counts version of its pincode, or "a" and the global one. A path
// parameter that names no pincode or office gives the global version (the
// answer is an error, uncached, anyway).
func countsVersion(ctx context.Context, p *directory.Directory, scope string, param func(string) string) (string, error) {
	var pin postal.Pincode
	switch scope {
	case countsPincode:
		pin, _ = postal.ParsePincode(param("pincode"))
	case countsOffice:
		if id, err := strconv.ParseInt(param("id"), 10, 64); err == nil {
			pin, _ = p.PincodeOf(ctx, id)
		}
	}
	v, err := p.CountsVersion(ctx, pin)
	if err != nil {
		return "", err
	}
	if pin == "" {
		return "a" + strconv.FormatInt(v, 10), nil
	}
	return "p" + strconv.FormatInt(v, 10), nil
}

// cachingContext adds the cache headers when the handler's status is a
// success, just before it is written.
type cachingContext struct {
	humaContext
	etag, maxAge string
}

// humaContext lets cachingContext embed huma.Context, whose Context method
// would clash with a field of that name.
type humaContext = huma.Context

// SetStatus sets the cache headers on 2xx answers, then the status.
func (c *cachingContext) SetStatus(code int) {
	if code >= 200 && code < 300 {
		c.SetHeader("ETag", c.etag)
		c.SetHeader("Cache-Control", c.maxAge)
	}
	c.humaContext.SetStatus(code)
}

// etagMatches applies If-None-Match's weak comparison.
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == strings.TrimPrefix(etag, "W/") {
			return true
		}
	}
	return false
}

package httpapi

import (
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/directory"
)

// cacheMaxAge is how long clients may cache postal data responses.
const cacheMaxAge = "public, max-age=86400"

// cacheable marks successful postal GET responses cacheable for a day with
// a weak ETag tied to the loaded dataset, and answers 304 to a matching
// If-None-Match. Error responses carry neither header: a 404 or 422 must
// not be cached as if it were data.
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
		etag := `W/"` + info.Version + `"`
		if etagMatches(ctx.Header("If-None-Match"), etag) {
			ctx.SetHeader("ETag", etag)
			ctx.SetHeader("Cache-Control", cacheMaxAge)
			ctx.SetStatus(http.StatusNotModified)
			return
		}
		next(&cachingContext{humaContext: ctx, etag: etag})
	}
}

// cachingContext adds the cache headers when the handler's status is a
// success, just before it is written.
type cachingContext struct {
	humaContext
	etag string
}

// humaContext lets cachingContext embed huma.Context, whose Context method
// would clash with a field of that name.
type humaContext = huma.Context

// SetStatus sets the cache headers on 2xx answers, then the status.
func (c *cachingContext) SetStatus(code int) {
	if code >= 200 && code < 300 {
		c.SetHeader("ETag", c.etag)
		c.SetHeader("Cache-Control", cacheMaxAge)
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

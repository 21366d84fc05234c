package httpapi

import (
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app"
)

// cacheMaxAge is how long clients may cache postal data responses.
const cacheMaxAge = "public, max-age=86400"

// cacheable marks postal GET responses cacheable for a day with a weak ETag
// tied to the loaded dataset, and answers 304 to a matching If-None-Match.
func cacheable(p *app.Postal) func(huma.Context, func(huma.Context)) {
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
		ctx.SetHeader("ETag", etag)
		ctx.SetHeader("Cache-Control", cacheMaxAge)
		if etagMatches(ctx.Header("If-None-Match"), etag) {
			ctx.SetStatus(http.StatusNotModified)
			return
		}
		next(ctx)
	}
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

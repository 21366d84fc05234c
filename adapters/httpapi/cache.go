package httpapi

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/app/directory"
)

// cacheMaxAge is how long clients may cache postal data responses.
const cacheMaxAge = "public, max-age=86400"

// cacheable marks successful postal GET responses cacheable for a day with
// a weak ETag tied to the loaded dataset, and answers 304 to a matching
// If-None-Match. Error responses carry neither header: a 404 or 422 must
// not be cached as if it were data.
//
// With a BodyCache, a successful GET answer is stored encoded (with its
// gzip variant) under the operation and its declared parameters, and the
// same request is answered from it until the dataset changes: no lookup,
// no encoding, no compression. The entry's tag is the {pincode} path
// parameter, when the operation has one, for BodyCache.InvalidateTag.
func cacheable(p *directory.Directory, cache *BodyCache) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		method := ctx.Method()
		if method != http.MethodGet && method != http.MethodHead {
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
		if cache == nil || method != http.MethodGet {
			next(&cachingContext{humaContext: ctx, etag: etag})
			return
		}
		key := cacheKey(ctx)
		hit, epoch := cache.Get(info.Version, key)
		if hit != nil {
			writeCached(ctx, hit, etag)
			return
		}
		rec := &recordingContext{cachingContext: cachingContext{humaContext: ctx, etag: etag}}
		next(rec)
		if rec.status == http.StatusOK && rec.contentType != "" {
			cache.Put(info.Version, key, ctx.Param("pincode"), epoch, rec.contentType, rec.body.Bytes())
		}
	}
}

// cacheKey names a request by its operation and the values of the
// parameters the operation declares (path and query), so undeclared query
// parameters cannot multiply the entries.
func cacheKey(ctx huma.Context) string {
	op := ctx.Operation()
	var b strings.Builder
	b.WriteString(op.OperationID)
	for _, p := range op.Parameters {
		b.WriteByte(0)
		switch p.In {
		case "path":
			b.WriteString(ctx.Param(p.Name))
		case "query":
			b.WriteString(ctx.Query(p.Name))
		}
	}
	return b.String()
}

// writeCached answers from a stored body, gzipped when the client takes it.
func writeCached(ctx huma.Context, e *CachedBody, etag string) {
	body := e.Body
	ctx.SetHeader("Content-Type", e.ContentType)
	if e.Gzip != nil && middleware.AcceptsGzip(ctx.Header("Accept-Encoding")) {
		body = e.Gzip
		ctx.SetHeader("Content-Encoding", "gzip")
	}
	ctx.SetHeader("Content-Length", strconv.Itoa(len(body)))
	ctx.SetHeader("ETag", etag)
	ctx.SetHeader("Cache-Control", cacheMaxAge)
	ctx.SetStatus(http.StatusOK)
	_, _ = ctx.BodyWriter().Write(body)
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

// recordingContext is a cachingContext that also keeps a copy of the
// answer's status, content type and body, for the BodyCache.
type recordingContext struct {
	cachingContext
	status      int
	contentType string
	body        bytes.Buffer
}

func (c *recordingContext) SetStatus(code int) {
	c.status = code
	c.cachingContext.SetStatus(code)
}

func (c *recordingContext) SetHeader(name, value string) {
	if strings.EqualFold(name, "Content-Type") {
		c.contentType = value
	}
	c.cachingContext.SetHeader(name, value)
}

func (c *recordingContext) BodyWriter() io.Writer {
	return io.MultiWriter(c.cachingContext.BodyWriter(), &c.body)
}

// etagMatches applies If-None-Match's weak comparison.
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == strings.TrimPrefix(etag, "W/") {
			return true
		}
	}
	return false
}

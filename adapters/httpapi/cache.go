package httpapi

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
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
//
// With a BodyCache, a successful GET answer is stored encoded (with its
// gzip variant) under the operation, its declared parameters and its ETag,
// and the same request is answered from it until the dataset changes: no
// lookup, no encoding, no compression. An entry is tagged with the pincode
// whose counts it carries (countsAnyTag for lists spanning pincodes), so
// Register's OnCountsChanged hook drops it when they change; since the key
// holds the ETag, an entry of older counts could never be served anyway.
func cacheable(p *directory.Directory, cache *BodyCache) func(huma.Context, func(huma.Context)) {
	var last lastETag
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
		maxAge := cacheMaxAgeValue
		scope, _ := ctx.Operation().Metadata[countsMetadata].(string)
		var counts etagCounts
		if scope != "" {
			counts, err = countsVersion(ctx.Context(), p, scope, ctx.Param)
			if err != nil { // the answer will say what went wrong, uncached
				next(ctx)
				return
			}
			maxAge = countsMaxAgeValue
		}
		var kb [128]byte // the cache key, then the ETag: no allocation on a hit
		stored := cache != nil && method == http.MethodGet
		key := kb[:0]
		if stored { // answers not stored (nearby points) need no key
			key = append(appendCacheKey(key, ctx), 0)
		}
		n := len(key)
		key = counts.appendETag(key, info.Version)
		etagBytes := key[n:]
		if inm := ctx.Header("If-None-Match"); inm != "" && etagMatches(inm, string(etagBytes)) {
			ctx.SetHeader("ETag", string(etagBytes))
			ctx.SetHeader("Cache-Control", maxAge[0])
			ctx.SetStatus(http.StatusNotModified)
			return
		}
		if !stored {
			next(&cachingContext{humaContext: ctx, etag: last.of(etagBytes), maxAge: maxAge})
			return
		}
		hit, epoch := cache.lookup(info.Version, key)
		if hit != nil && hit.etag != nil {
			writeCached(ctx, hit, maxAge)
			return
		}
		etag := string(etagBytes)
		rec := &recordingContext{cachingContext: cachingContext{humaContext: ctx, etag: []string{etag}, maxAge: maxAge}}
		next(rec)
		if rec.status == http.StatusOK && rec.contentType != "" {
			cache.put(info.Version, string(key), countsTag(scope, ctx.Param), epoch, rec.contentType, rec.body.Bytes(), etag)
		}
	}
}

// The Cache-Control values, shared by every answer.
var (
	cacheMaxAgeValue  = []string{cacheMaxAge}
	countsMaxAgeValue = []string{countsMaxAge}
	gzipValue         = []string{"gzip"}
)

// etagCounts is the counts version an ETag names: kind 'p' (of one
// pincode) or 'a' (of every pincode) and the version; kind 0: none.
type etagCounts struct {
	kind byte
	n    int64
}

// appendETag appends the weak ETag of an answer of dataset version with
// counts c: W/"version" or W/"version-pN" / W/"version-aN".
func (c etagCounts) appendETag(dst []byte, version string) []byte {
	dst = append(dst, `W/"`...)
	dst = append(dst, version...)
	if c.kind != 0 {
		dst = append(dst, '-', c.kind)
		dst = strconv.AppendInt(dst, c.n, 10)
	}
	return append(dst, '"')
}

// lastETag keeps the last ETag value an operation answered with: answers
// that are not stored (nearby points) mostly share one, which is then not
// built again for each.
type lastETag struct{ v atomic.Pointer[[]string] }

// of returns the header value of etag, the last one's when it is the same.
func (l *lastETag) of(etag []byte) []string {
	if v := l.v.Load(); v != nil && (*v)[0] == string(etag) {
		return *v
	}
	v := []string{string(etag)}
	l.v.Store(&v)
	return v
}

// countsVersion names the counts an answer of scope carries: those of its
// pincode, or the global ones. A path parameter that names no pincode or
// office gives the global version (the answer is an error, uncached,
// anyway).
func countsVersion(ctx context.Context, p *directory.Directory, scope string, param func(string) string) (etagCounts, error) {
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
		return etagCounts{}, err
	}
	if pin == "" {
		return etagCounts{kind: 'a', n: v}, nil
	}
	return etagCounts{kind: 'p', n: v}, nil
}

// countsAnyTag tags cached answers carrying offices of several pincodes:
// any change of counts drops them.
const countsAnyTag = "*"

// countsTag is the BodyCache tag of an answer of scope: the pincode whose
// counts it carries, countsAnyTag for offices of any pincode, none ("")
// for answers without counts.
func countsTag(scope string, param func(string) string) string {
	switch scope {
	case "":
		return ""
	case countsPincode:
		if pin, err := postal.ParsePincode(param("pincode")); err == nil {
			return string(pin)
		}
	}
	return countsAnyTag
}

// dropCounts returns the OnCountsChanged hook of cache: the answers
// holding pin's offices go, and those spanning pincodes. For "" (every
// pincode, after a lost announcement) the per-pincode entries stay until
// evicted: their keys hold the ETag, whose counts version has moved on, so
// they are never served again.
func dropCounts(cache *BodyCache) func(postal.Pincode) {
	return func(pin postal.Pincode) {
		if pin != "" {
			cache.invalidateTag(string(pin))
		}
		cache.invalidateTag(countsAnyTag)
	}
}

// appendCacheKey appends the name of a request: its operation and the
// values of the parameters the operation declares (path and query), each
// after a 0 byte, so undeclared query parameters cannot multiply the
// entries.
func appendCacheKey(dst []byte, ctx huma.Context) []byte {
	op := ctx.Operation()
	dst = append(dst, op.OperationID...)
	for _, p := range op.Parameters {
		dst = append(dst, 0)
		switch p.In {
		case "path":
			dst = append(dst, ctx.Param(p.Name)...)
		case "query":
			dst = append(dst, ctx.Query(p.Name)...)
		}
	}
	return dst
}

// writeCached answers from a stored body, gzipped when the client takes
// it, with the header values stored beside it.
func writeCached(ctx huma.Context, e *cachedBody, maxAge []string) {
	_, w := humago.Unwrap(ctx)
	h := w.Header()
	body, length := e.Body, e.bodyLength
	h["Content-Type"] = e.contentType
	if e.Gzip != nil && middleware.AcceptsGzip(ctx.Header("Accept-Encoding")) {
		body, length = e.Gzip, e.gzipLength
		h["Content-Encoding"] = gzipValue
	}
	h["Content-Length"] = length
	h["Etag"] = e.etag
	h["Cache-Control"] = maxAge
	ctx.SetStatus(http.StatusOK)
	_, _ = ctx.BodyWriter().Write(body)
}

// cachingContext adds the cache headers when the handler's status is a
// success, just before it is written.
type cachingContext struct {
	humaContext
	etag, maxAge []string // header values
}

// humaContext lets cachingContext embed huma.Context, whose Context method
// would clash with a field of that name.
type humaContext = huma.Context

// SetStatus sets the cache headers on 2xx answers, then the status.
func (c *cachingContext) SetStatus(code int) {
	if code >= 200 && code < 300 {
		_, w := humago.Unwrap(c.humaContext)
		h := w.Header()
		h["Etag"] = c.etag
		h["Cache-Control"] = c.maxAge
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

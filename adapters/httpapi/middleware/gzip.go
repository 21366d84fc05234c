package middleware

import (
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzhttp"
)

// GzipMinBytes is the smallest body worth compressing: the edge leaves
// smaller answers plain, and the body cache stores no gzip variant of them.
const GzipMinBytes = 1024

// compressible is the content-type filter: gzhttp's default (no audio,
// video, JPEG or archive formats) without raster images and WOFF fonts,
// which are compressed already; SVG is text and is compressed.
func compressible(ct string) bool {
	ct = strings.ToLower(strings.TrimSpace(ct))
	if strings.HasPrefix(ct, "image/") && !strings.HasPrefix(ct, "image/svg") || strings.HasPrefix(ct, "font/woff") {
		return false
	}
	return gzhttp.DefaultContentTypeFilter(ct)
}

// gzipWrap is klauspost/compress's gzhttp configured for the API: gzip
// only (no zstd), at the fastest level, for bodies of at least
// GzipMinBytes whose content type is not already compressed (see
// compressible); it adds Vary: Accept-Encoding, honours the
// client's q-values, passes bodies that already carry a Content-Encoding
// through untouched, and flushes compressed data on http.Flusher.Flush.
var gzipWrap = mustGzipWrapper()

func mustGzipWrapper() func(http.Handler) http.HandlerFunc {
	wrap, err := gzhttp.NewWrapper(
		gzhttp.MinSize(GzipMinBytes),
		gzhttp.CompressionLevel(gzip.BestSpeed),
		gzhttp.EnableZstd(false),
		gzhttp.ContentTypeFilter(compressible),
	)
	if err != nil { // the options are constants: only a programming error gets here
		panic("middleware: gzhttp options: " + err.Error())
	}
	return wrap
}

// compressed gzips the responses of next for clients that accept gzip.
func compressed(next http.Handler) http.Handler {
	return gzipWrap(next)
}

// AcceptsGzip reports whether an Accept-Encoding header allows gzip (by
// name or "*") with a non-zero quality: for handlers serving bodies they
// compressed beforehand.
func AcceptsGzip(header string) bool {
	for header != "" {
		var part string
		part, header, _ = strings.Cut(header, ",")
		name, params, _ := strings.Cut(part, ";")
		name = strings.TrimSpace(name)
		if !strings.EqualFold(name, "gzip") && name != "*" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if k, v, _ := strings.Cut(strings.TrimSpace(p), "="); strings.EqualFold(k, "q") {
				q, _ = strconv.ParseFloat(v, 64)
			}
		}
		return q > 0
	}
	return false
}

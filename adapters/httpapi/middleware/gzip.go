package middleware

import (
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// gzipMinBytes is the smallest body worth compressing.
const gzipMinBytes = 1024

var gzipWriters = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed); return w }}

// compressed gzips responses of at least gzipMinBytes for clients that accept
// gzip. Smaller bodies, HEAD requests and already-encoded bodies pass as is.
func compressed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if r.Method == http.MethodHead || !acceptsGzip(r.Header.Get("Accept-Encoding")) {
			next.ServeHTTP(w, r)
			return
		}
		gw := &gzipWriter{ResponseWriter: w}
		defer gw.close()
		next.ServeHTTP(gw, r)
	})
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip (by
// name or "*") with a non-zero quality.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.TrimSpace(name)
		if !strings.EqualFold(name, "gzip") && name != "*" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if k, v, _ := strings.Cut(strings.TrimSpace(p), "="); k == "q" {
				q, _ = strconv.ParseFloat(v, 64)
			}
		}
		return q > 0
	}
	return false
}

// gzipWriter buffers the start of a body to decide whether to compress it.
type gzipWriter struct {
	http.ResponseWriter
	status  int
	buf     []byte
	gz      *gzip.Writer
	decided bool
}

func (g *gzipWriter) WriteHeader(code int) {
	if g.status == 0 {
		g.status = code
	}
}

func (g *gzipWriter) Write(b []byte) (int, error) {
	if g.status == 0 {
		g.status = http.StatusOK
	}
	if g.decided {
		if g.gz != nil {
			return g.gz.Write(b)
		}
		return g.ResponseWriter.Write(b)
	}
	g.buf = append(g.buf, b...)
	if len(g.buf) >= gzipMinBytes {
		if err := g.decide(); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// decide starts the response, compressed or not, and flushes the buffer.
func (g *gzipWriter) decide() error {
	g.decided = true
	h := g.ResponseWriter.Header()
	if len(g.buf) >= gzipMinBytes && h.Get("Content-Encoding") == "" && g.status != http.StatusNoContent && g.status != http.StatusNotModified {
		h.Set("Content-Encoding", "gzip")
		h.Del("Content-Length")
		g.gz = gzipWriters.Get().(*gzip.Writer)
		g.gz.Reset(g.ResponseWriter)
		g.ResponseWriter.WriteHeader(g.status)
		_, err := g.gz.Write(g.buf)
		return err
	}
	if g.status != 0 {
		g.ResponseWriter.WriteHeader(g.status)
	}
	if len(g.buf) > 0 {
		_, err := g.ResponseWriter.Write(g.buf)
		return err
	}
	return nil
}

func (g *gzipWriter) close() {
	if !g.decided {
		_ = g.decide()
	}
	if g.gz != nil {
		_ = g.gz.Close()
		g.gz.Reset(nil)
		gzipWriters.Put(g.gz)
		g.gz = nil
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (g *gzipWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

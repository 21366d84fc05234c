package middleware

import (
	"net/http"
	"strconv"
)

// Defaults of RequestLimits.
const (
	DefaultMaxURLBytes    = 8 << 10
	DefaultMaxQueryParams = 50
	DefaultMaxConcurrent  = 1024
	// DefaultMaxHeaderBytes caps the request line and headers together.
	DefaultMaxHeaderBytes = 16 << 10
)

// RequestLimits caps what a client controls besides the body (1 MiB, per
// operation: huma's MaxBodyBytes; the two bulk-file operations,
// BulkPincodesPath and BulkDigipinPath, read their bodies themselves, capped
// at 16 MiB and 100,000 rows) and the timeouts (httpapi.Config; the bulk
// files replace the server's read and write timeouts with 30 s per block of
// 1,000 rows, so a long answer is not cut). A zero field takes its default; a
// negative one disables the cap.
type RequestLimits struct {
	// MaxURLBytes bounds the request target (path and query): 414 beyond.
	MaxURLBytes int
	// MaxQueryParams bounds the number of query parameters: 400 beyond.
	MaxQueryParams int
	// MaxHeaderBytes bounds the request line and headers: 431 in the
	// envelope beyond. The server cuts requests some 4 KiB larger itself,
	// with net/http's plain-text 431.
	MaxHeaderBytes int
	// MaxConcurrent bounds the requests served at once: 503 with
	// Retry-After beyond. /healthz, /readyz and /metrics are not counted,
	// so an overloaded server can still be observed.
	MaxConcurrent int
}

func (l RequestLimits) withDefaults() RequestLimits {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&l.MaxURLBytes, DefaultMaxURLBytes)
	def(&l.MaxQueryParams, DefaultMaxQueryParams)
	def(&l.MaxHeaderBytes, DefaultMaxHeaderBytes)
	def(&l.MaxConcurrent, DefaultMaxConcurrent)
	return l
}

// bounded refuses, in the error envelope, requests whose URL, headers or
// query exceed l. It runs first: these checks cost nothing.
func bounded(next http.Handler, l RequestLimits) http.Handler {
	l = l.withDefaults()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n := len(requestURI(r)); l.MaxURLBytes > 0 && n > l.MaxURLBytes {
			WriteError(w, http.StatusRequestURITooLong, "URL of "+strconv.Itoa(n)+" bytes: at most "+strconv.Itoa(l.MaxURLBytes)+" allowed")
			return
		}
		if l.MaxHeaderBytes > 0 && headerBytes(r) > l.MaxHeaderBytes {
			WriteError(w, http.StatusRequestHeaderFieldsTooLarge, "request headers too large: at most "+strconv.Itoa(l.MaxHeaderBytes)+" bytes allowed")
			return
		}
		if n := queryParams(r.URL.RawQuery); l.MaxQueryParams > 0 && n > l.MaxQueryParams {
			writeFieldError(w, http.StatusBadRequest, "too many query parameters", "query",
				strconv.Itoa(n)+" parameters: at most "+strconv.Itoa(l.MaxQueryParams)+" allowed")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// capped refuses requests beyond the concurrency cap of l (503 with
// Retry-After). It runs last, after every cheap refusal (limits, rate
// limits), so a request that will be refused never holds a slot. A slot is
// held while the body is read, which huma (and the form and report-page
// readers) bound with a read deadline of their own (bodyReadTimeout), well
// under the server's ReadTimeout.
func capped(next http.Handler, l RequestLimits) http.Handler {
	l = l.withDefaults()
	if l.MaxConcurrent <= 0 {
		return next
	}
	slots := make(chan struct{}, l.MaxConcurrent)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if unthrottled(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
			next.ServeHTTP(w, r)
		default:
			w.Header().Set("Retry-After", "1")
			WriteError(w, http.StatusServiceUnavailable, "server busy: too many concurrent requests, retry after 1 s")
		}
	})
}

// unthrottled lists the operations endpoints kept out of the concurrency cap.
func unthrottled(path string) bool {
	return path == "/healthz" || path == "/readyz" || path == "/readyz/reads" || path == "/metrics"
}

// headerBytes approximates what the request line and headers took on the
// wire, as http.Server counts them against MaxHeaderBytes.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(requestURI(r)) + len(r.Proto) + 4
	if r.Host != "" {
		n += len("Host: \r\n") + len(r.Host)
	}
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4 // ": " and CRLF
		}
	}
	return n
}

// requestURI is the request target as sent (servers set RequestURI;
// client-built requests only have the URL).
func requestURI(r *http.Request) string {
	if r.RequestURI != "" {
		return r.RequestURI
	}
	return r.URL.RequestURI()
}

// queryParams counts the parameters of a raw query (empty pairs, which
// url.ParseQuery skips, are not counted).
func queryParams(raw string) int {
	n, start := 0, 0
	for i := 0; i <= len(raw); i++ {
		if i == len(raw) || raw[i] == '&' {
			if i > start {
				n++
			}
			start = i + 1
		}
	}
	return n
}

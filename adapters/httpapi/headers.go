package httpapi

import "net/http"

// defaultRetryAfter is the Retry-After (seconds) of a 503 whose writer set
// none: a dependency is down or the server is not ready yet.
const defaultRetryAfter = "5"

// hardened gives every response the headers the contract promises, in one
// place: X-Content-Type-Options: nosniff on all of them, and Retry-After on
// every 503 (the default when the handler set none). Only the answers
// net/http writes itself, before any handler runs (a malformed request,
// headers far over the cap), go without.
func hardened(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(&hardenedWriter{ResponseWriter: w}, r)
	})
}

// hardenedWriter completes the headers when the status is written.
type hardenedWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *hardenedWriter) WriteHeader(code int) {
	if !w.wrote && code >= 200 { // 1xx answers precede the real one
		w.wrote = true
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff") // again: a handler may have reset the headers
		if code == http.StatusServiceUnavailable && h.Get("Retry-After") == "" {
			h.Set("Retry-After", defaultRetryAfter)
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *hardenedWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *hardenedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

package middleware

import (
	"errors"
	"io"
	"net/http"
)

// defaultRetryAfter is the Retry-After (seconds) of a 503 whose writer set
// none: a dependency is down or the server is not ready yet.
const defaultRetryAfter = "5"

// nosniff is the value of X-Content-Type-Options, shared by every response
// (headers are replaced, never edited in place).
var nosniff = []string{"nosniff"}

// hardened gives every response the headers the contract promises, in one
// place: X-Content-Type-Options: nosniff on all of them, and Retry-After on
// every 503 (the default when the handler set none). Only the answers
// net/http writes itself, before any handler runs (a malformed request,
// headers far over the cap), go without.
//
// It also answers a request whose body was not read to its end (refused
// before reading it: 401, 404, 429, 503 ...) with Connection: close, so
// net/http does not first wait for the rest of the body, which a slow
// client would trickle until the server's ReadTimeout.
func hardened(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["X-Content-Type-Options"] = nosniff
		var hw *hardenedWriter
		if s := stateOf(r.Context()); s != nil { // behind observed: the writer is part of its state
			s.hardened = hardenedWriter{ResponseWriter: w}
			hw = &s.hardened
		} else {
			hw = &hardenedWriter{ResponseWriter: w}
		}
		if r.ProtoMajor == 1 && r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
			hw.body = &trackedBody{ReadCloser: r.Body}
			r = r.WithContext(r.Context()) // a copy: the server keeps the original request and body
			r.Body = hw.body
		}
		next.ServeHTTP(hw, r)
	})
}

// hardenedWriter completes the headers when the status is written.
type hardenedWriter struct {
	http.ResponseWriter
	body  *trackedBody // nil: no body to read
	wrote bool
}

func (w *hardenedWriter) WriteHeader(code int) {
	if !w.wrote && code >= 200 { // 1xx answers precede the real one
		w.wrote = true
		h := w.Header()
		if len(h["X-Content-Type-Options"]) == 0 { // a handler may have reset the headers
			h["X-Content-Type-Options"] = nosniff
		}
		if code == http.StatusServiceUnavailable && h.Get("Retry-After") == "" {
			h.Set("Retry-After", defaultRetryAfter)
		}
		if w.body != nil && !w.body.done {
			h.Set("Connection", "close")
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

// Flush sends what was written so far (a streaming answer), its headers
// completed first.
func (w *hardenedWriter) Flush() {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *hardenedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// trackedBody records whether a request body was read to its end.
type trackedBody struct {
	io.ReadCloser
	done bool
}

func (b *trackedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.done = true
	}
	return n, err
}

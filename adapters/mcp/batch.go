package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// admitBatch reads the body of a POST and, when it is a JSON-RPC batch,
// refuses it beyond o.MaxBatch messages (400) and charges its messages
// but the first (which the host's edge charged) with o.Charge, refusing
// it 429 with Retry-After beyond the quota. It leaves the body for the
// SDK and reports whether the request may go on.
func admitBatch(w http.ResponseWriter, r *http.Request, o HTTPOptions) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, sdk.DefaultMaxRequestBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, "the request body exceeds "+strconv.FormatInt(mbe.Limit, 10)+" bytes")
		} else {
			writeError(w, http.StatusBadRequest, "the request body could not be read")
		}
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	n := batchSize(body)
	if n > o.MaxBatch {
		writeError(w, http.StatusBadRequest, "a JSON-RPC batch holds at most "+strconv.Itoa(o.MaxBatch)+
			" messages, this one "+strconv.Itoa(n)+": send them in several requests (each message counts against the rate limit)")
		return false
	}
	if n < 2 || o.Charge == nil {
		return true
	}
	d := o.Charge(r.Context(), n-1)
	if d.Limit > 0 {
		w.Header().Set("RateLimit-Remaining", strconv.Itoa(d.Remaining))
	}
	if !d.Allowed {
		w.Header().Set("Retry-After", seconds(d.RetryAfter))
		writeError(w, http.StatusTooManyRequests, "rate limit exceeded: a batch of "+strconv.Itoa(n)+
			" messages counts "+strconv.Itoa(n)+" requests; retry after "+seconds(d.RetryAfter)+" s")
		return false
	}
	return true
}

// batchSize is the number of messages of a JSON-RPC batch, 1 for
// anything else (one message, or a body the SDK refuses).
func batchSize(body []byte) int {
	if b := bytes.TrimLeft(body, " \t\r\n"); len(b) == 0 || b[0] != '[' {
		return 1
	}
	var msgs []json.RawMessage
	if err := json.Unmarshal(body, &msgs); err != nil {
		return 1
	}
	return len(msgs)
}

// serveBounded serves r with h within deadline: a request whose answer
// was not begun by then is answered 503 in the envelope (the SDK would
// leave it empty), its work cancelled.
func serveBounded(w http.ResponseWriter, r *http.Request, h http.Handler, deadline time.Duration) {
	ctx, cancel := context.WithTimeout(r.Context(), deadline)
	defer cancel()
	ctx = context.WithValue(ctx, requestKey{}, ctx)
	gw := &guardedWriter{ResponseWriter: w}
	h.ServeHTTP(gw, r.WithContext(ctx))
	if gw.seal() && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		writeError(w, http.StatusServiceUnavailable, "the request did not finish within "+
			strconv.FormatFloat(deadline.Seconds(), 'f', -1, 64)+" s: send fewer calls at once, or retry later")
	}
}

// requestKey holds, in the context of a request's calls, the context of
// the HTTP request that carried them.
type requestKey struct{}

// withinRequest is ctx, cancelled too when the HTTP request that carried
// the call ends or passes its deadline: the SDK ties a call to its
// request only on protocols from 2026-07-28, so a cut batch would
// otherwise run on.
func withinRequest(ctx context.Context) (context.Context, context.CancelFunc) {
	req, ok := ctx.Value(requestKey{}).(context.Context)
	if !ok {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(req, func() { cancel(context.Cause(req)) })
	return ctx, func() { stop(); cancel(nil) }
}

// withinRequests runs every method a client calls within its HTTP
// request (see withinRequest).
func withinRequests(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		ctx, cancel := withinRequest(ctx)
		defer cancel()
		return next(ctx, method, req)
	}
}

// guardedWriter passes an answer through until sealed, and drops what the
// SDK writes after (a late response of a cut request).
type guardedWriter struct {
	http.ResponseWriter
	mu     sync.Mutex
	wrote  bool
	sealed bool
}

// WriteHeader implements http.ResponseWriter.
func (g *guardedWriter) WriteHeader(status int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.sealed {
		g.wrote = true
		g.ResponseWriter.WriteHeader(status)
	}
}

// Write implements http.ResponseWriter.
func (g *guardedWriter) Write(b []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.sealed {
		return 0, http.ErrHandlerTimeout
	}
	g.wrote = true
	return g.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the underlying writer.
func (g *guardedWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// seal stops every later write and reports whether nothing was written.
func (g *guardedWriter) seal() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sealed = true
	return !g.wrote
}

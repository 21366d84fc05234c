package middleware

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/pinsight/pinsight/ports"
)

// maxRequestIDLen bounds a client-supplied X-Request-Id.
const maxRequestIDLen = 128

// stateKey holds the *requestState of a request served by the edge.
type stateKey struct{}

// requestState is what the edge keeps in a request's context, in one value
// (one allocation per request, with the id's header value and the
// response writers of observed and hardened): its id, the logger of the handlers behind
// the edge, and the route pattern the router writes there (middlewares
// between observed and the router may serve a copy of the request, whose
// Pattern observed would not see).
type requestState struct {
	context.Context // the request's context, which the state extends
	id              string
	route           string
	log             *slog.Logger
	idHeader        [1]string      // the X-Request-Id header's value
	writer          statusWriter   // the response writer behind the edge
	hardened        hardenedWriter // hardened's writer, behind writer
}

// Value is the state itself for stateKey, else the request context's
// value: the state is the context value holding it (no context.WithValue
// to allocate).
func (s *requestState) Value(key any) any {
	if _, ok := key.(stateKey); ok {
		return s
	}
	return s.Context.Value(key)
}

func stateOf(ctx context.Context) *requestState {
	s, _ := ctx.Value(stateKey{}).(*requestState)
	return s
}

// recordRoute tells observed the pattern a request matched.
func recordRoute(ctx context.Context, pattern string) {
	if s := stateOf(ctx); s != nil {
		s.route = pattern
	}
}

// RequestID returns the id of the request being served, or "".
func RequestID(ctx context.Context) string {
	if s := stateOf(ctx); s != nil {
		return s.id
	}
	return ""
}

// observed assigns each request an id (echoing a sane X-Request-Id) and
// gives its context the logger (Logger) and one store budget
// (ports.WithStoreBudget), then logs and counts it once
// served: method, route pattern, status, duration. A request answered
// before it reached the router (a quota, a limit) is counted under the
// pattern mux would have matched. Bodies, query strings and headers (keys,
// passwords) are never logged.
func observed(next http.Handler, log *slog.Logger, m *Metrics, mux *http.ServeMux) http.Handler {
	lines := lineWriter(log.Handler())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if !validRequestID(id) {
			id = newRequestID()
		}
		state := &requestState{Context: r.Context(), id: id, log: log}
		state.idHeader[0] = id
		w.Header()["X-Request-Id"] = state.idHeader[:]
		ctx := ports.WithStoreBudget(state)
		r = r.WithContext(ctx)
		state.writer = statusWriter{ResponseWriter: w, status: http.StatusOK}
		sw := &state.writer
		next.ServeHTTP(sw, r)
		elapsed := time.Since(start)
		if state.route == "" {
			_, state.route = mux.Handler(r)
		}
		if state.route == "" {
			state.route = "unmatched"
		}
		route := state.route
		m.observe(route, sw.status, elapsed)
		a := access{requestID: id, method: r.Method, route: route, path: r.URL.Path, status: sw.status,
			durationMs: float64(elapsed.Microseconds()) / 1000, bytes: sw.bytes}
		if span := trace.SpanFromContext(ctx); span.SpanContext().IsValid() {
			span.SetName(route)
			span.SetAttributes(semconv.HTTPRoute(route), attribute.String("request_id", id))
			a.traceID = span.SpanContext().TraceID().String()
		}
		a.time = time.Now()
		logAccess(r.Context(), log, lines, &a)
	})
}

func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// newRequestID returns 96 random bits in hex. They come from math/rand/v2
// (the runtime's ChaCha8, seeded by the OS): unique, without a getrandom
// system call per request as crypto/rand may make. A request id
// correlates log lines; it is not a secret.
func newRequestID() string {
	var b [12]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint32(b[8:], rand.Uint32())
	return hex.EncodeToString(b[:])
}

// statusWriter records the status and size of a response.
type statusWriter struct {
	http.ResponseWriter
	status      int
	bytes       int64
	wroteHeader bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wroteHeader {
		w.status, w.wroteHeader = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wroteHeader = true
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Flush sends what was written so far (a streaming answer).
func (w *statusWriter) Flush() {
	w.wroteHeader = true
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Logger returns the logger of the edge serving the request of ctx (its
// Options.Log), or one that discards when no edge put one there: the
// handlers behind the edge log through it, never through slog's default.
func Logger(ctx context.Context) *slog.Logger {
	if s := stateOf(ctx); s != nil && s.log != nil {
		return s.log
	}
	return discard
}

// discard is the logger of requests served without an edge logger.
var discard = slog.New(slog.DiscardHandler)

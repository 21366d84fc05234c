package middleware

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/pinsight/pinsight/adapters/internal/jsonappend"
)

// JSONLines is a slog.Handler that can also take whole lines in its own
// format: records it would write as slog's JSON handler with default
// options writes them (no ReplaceAttr, no source, no attributes or groups
// added), one line each. The edge appends its access log line by hand in
// those bytes and hands it over, instead of building a slog.Record whose
// encoding (a float through encoding/json among it) costs more than the
// rest of the line. Wrappers (ContextLog) forward to the handler they wrap.
type JSONLines interface {
	slog.Handler
	// JSONLines reports whether WriteJSONLine may be used: false when the
	// handler (or one it wraps) writes another format.
	JSONLines() bool
	// WriteJSONLine writes line, a record at level in the JSON handler's
	// bytes with its trailing newline.
	WriteJSONLine(level slog.Level, line []byte) error
}

// NewJSONHandler is slog.NewJSONHandler(w, &slog.HandlerOptions{Level:
// level}) that also takes the edge's access log lines (JSONLines). w must
// be safe for concurrent writes: the lines are written to it directly,
// outside the slog handler's own lock.
func NewJSONHandler(w io.Writer, level slog.Leveler) slog.Handler {
	return jsonLines{slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level}), w}
}

// jsonLines is the JSON handler that NewJSONHandler returns. The handlers
// WithAttrs and WithGroup derive from it are plain JSON handlers: their
// lines carry more than a hand-made line would.
type jsonLines struct {
	*slog.JSONHandler
	w io.Writer
}

func (jsonLines) JSONLines() bool { return true }

func (h jsonLines) WriteJSONLine(_ slog.Level, line []byte) error {
	_, err := h.w.Write(line)
	return err
}

// lineWriter returns the JSONLines behind h, or nil when h cannot take
// hand-made lines.
func lineWriter(h slog.Handler) JSONLines {
	if l, ok := h.(JSONLines); ok && l.JSONLines() {
		return l
	}
	return nil
}

// access is one access log line's fields, in their order.
type access struct {
	time       time.Time
	requestID  string
	traceID    string // "": not traced, left out
	method     string
	route      string
	path       string
	status     int
	durationMs float64
	bytes      int64
}

// appendAttrs appends a's fields after the built-in ones, as slog
// attributes.
func (a *access) appendAttrs(dst []slog.Attr) []slog.Attr {
	dst = append(dst, slog.String("request_id", a.requestID))
	if a.traceID != "" {
		dst = append(dst, slog.String("trace_id", a.traceID))
	}
	return append(dst, slog.String("method", a.method), slog.String("route", a.route),
		slog.String("path", a.path), slog.Int("status", a.status),
		slog.Float64("duration_ms", a.durationMs), slog.Int64("bytes", a.bytes))
}

// appendJSON appends a's line as slog's JSON handler writes an info
// record "request" logged at a.time with a.appendAttrs(nil).
func (a *access) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"time":"`...)
	dst = a.time.Round(0).AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, `","level":"INFO","msg":"request","request_id":`...)
	dst = jsonappend.SlogString(dst, a.requestID)
	if a.traceID != "" {
		dst = append(dst, `,"trace_id":`...)
		dst = jsonappend.SlogString(dst, a.traceID)
	}
	dst = append(dst, `,"method":`...)
	dst = jsonappend.SlogString(dst, a.method)
	dst = append(dst, `,"route":`...)
	dst = jsonappend.SlogString(dst, a.route)
	dst = append(dst, `,"path":`...)
	dst = jsonappend.SlogString(dst, a.path)
	dst = append(dst, `,"status":`...)
	dst = strconv.AppendInt(dst, int64(a.status), 10)
	dst = append(dst, `,"duration_ms":`...)
	dst = jsonappend.Float(dst, a.durationMs)
	dst = append(dst, `,"bytes":`...)
	dst = strconv.AppendInt(dst, a.bytes, 10)
	return append(dst, "}\n"...)
}

// lineBuffers recycles the buffers access log lines are appended in.
var lineBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// logAccess writes a's line: by hand through lines when there is one,
// else as a record through log.
func logAccess(ctx context.Context, log *slog.Logger, lines JSONLines, a *access) {
	if lines == nil {
		if log.Enabled(ctx, slog.LevelInfo) {
			var attrs [8]slog.Attr
			log.LogAttrs(ctx, slog.LevelInfo, "request", a.appendAttrs(attrs[:0])...)
		}
		return
	}
	if !lines.Enabled(ctx, slog.LevelInfo) {
		return
	}
	bp := lineBuffers.Get().(*[]byte)
	*bp = a.appendJSON((*bp)[:0])
	_ = lines.WriteJSONLine(slog.LevelInfo, *bp)
	if cap(*bp) <= 4<<10 {
		lineBuffers.Put(bp)
	}
}

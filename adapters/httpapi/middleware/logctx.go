package middleware

import (
	"context"
	"log/slog"

	"go.opentelemetry.io/otel/trace"
)

// ContextLog wraps a slog handler so that every line logged with a
// request's context (slog.InfoContext(r.Context(), ...)) names the
// request: its request_id and, when traced, its trace_id. The access log
// names them itself.
func ContextLog(h slog.Handler) slog.Handler { return contextLog{h} }

type contextLog struct{ slog.Handler }

func (c contextLog) Handle(ctx context.Context, r slog.Record) error {
	id := RequestID(ctx)
	sc := trace.SpanContextFromContext(ctx)
	if id == "" && !sc.IsValid() {
		return c.Handler.Handle(ctx, r)
	}
	named := false
	r.Attrs(func(a slog.Attr) bool {
		named = a.Key == "request_id"
		return !named
	})
	if named {
		return c.Handler.Handle(ctx, r)
	}
	r = r.Clone()
	if id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	if sc.IsValid() {
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()))
	}
	return c.Handler.Handle(ctx, r)
}

func (c contextLog) WithAttrs(as []slog.Attr) slog.Handler {
	return contextLog{c.Handler.WithAttrs(as)}
}
func (c contextLog) WithGroup(name string) slog.Handler { return contextLog{c.Handler.WithGroup(name)} }

// JSONLines reports whether the wrapped handler takes hand-made lines. The
// edge's access log lines name their request already.
func (c contextLog) JSONLines() bool { return lineWriter(c.Handler) != nil }

// WriteJSONLine hands line to the wrapped handler.
func (c contextLog) WriteJSONLine(level slog.Level, line []byte) error {
	return c.Handler.(JSONLines).WriteJSONLine(level, line)
}

package main

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
)

// logFlushEvery is how long an info or debug line may wait in the log
// buffer before it is written out.
const logFlushEvery = 100 * time.Millisecond

// logBuffer is the log output: lines are gathered in a buffer behind a mutex
// and written to the underlying writer every interval, once the buffer
// holds logBufferSize bytes, at once when a record at warn level or above is
// logged (see flushOnWarn), and on Close. It saves the write system call per
// access-log line on the request path. A flush takes the buffer and writes
// it outside the mutex, so the requests logging meanwhile never wait for
// the file; flushes write one after another, keeping the lines in order.
type logBuffer struct {
	mu     sync.Mutex // guards buf and closed
	buf    []byte     // lines not yet handed to a flush
	closed bool

	wmu   sync.Mutex // one flush at a time; guards spare
	out   io.Writer
	spare []byte // the buffer last written out, reused by the next flush

	stop chan struct{}
	done chan struct{}
}

// logBufferSize is how much the buffer gathers before the writer that fills
// it flushes it.
const logBufferSize = 64 << 10

// newLogBuffer buffers writes to out and flushes them every interval until
// Close.
func newLogBuffer(out io.Writer, every time.Duration) *logBuffer {
	b := &logBuffer{
		out:   out,
		buf:   make([]byte, 0, logBufferSize+4<<10),
		spare: make([]byte, 0, logBufferSize+4<<10),
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
	}
	go b.loop(every)
	return b
}

func (b *logBuffer) loop(every time.Duration) {
	defer close(b.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			_ = b.Flush()
		case <-b.stop:
			return
		}
	}
}

// Write adds p to the buffer, and flushes it when full (at once once Close
// has been called).
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	b.buf = append(b.buf, p...)
	flush := len(b.buf) >= logBufferSize || b.closed
	b.mu.Unlock()
	if flush {
		return len(p), b.Flush()
	}
	return len(p), nil
}

// Flush writes out what the buffer holds.
func (b *logBuffer) Flush() error {
	b.wmu.Lock()
	defer b.wmu.Unlock()
	b.mu.Lock()
	full := b.buf
	b.buf = b.spare[:0]
	b.mu.Unlock()
	var err error
	if len(full) > 0 {
		_, err = b.out.Write(full)
	}
	b.spare = full[:0]
	return err
}

// Close stops the periodic flush and writes out the buffer; later writes go
// straight through. It may be called more than once.
func (b *logBuffer) Close() error {
	b.mu.Lock()
	first := !b.closed
	b.closed = true
	b.mu.Unlock()
	if first {
		close(b.stop)
		<-b.done
	}
	return b.Flush()
}

// flushOnWarn is a slog handler that flushes its buffer after each record at
// warn level or above, so warnings and errors are never delayed.
type flushOnWarn struct {
	slog.Handler
	buf *logBuffer
}

// Handle passes r on, then flushes the buffer if r is a warning or worse.
func (h flushOnWarn) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		if ferr := h.buf.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

// WithAttrs keeps the flush on the derived handler.
func (h flushOnWarn) WithAttrs(attrs []slog.Attr) slog.Handler {
	return flushOnWarn{h.Handler.WithAttrs(attrs), h.buf}
}

// WithGroup keeps the flush on the derived handler.
func (h flushOnWarn) WithGroup(name string) slog.Handler {
	return flushOnWarn{h.Handler.WithGroup(name), h.buf}
}

// JSONLines reports whether the wrapped handler takes hand-made lines
// (middleware.JSONLines).
func (h flushOnWarn) JSONLines() bool {
	l, ok := h.Handler.(middleware.JSONLines)
	return ok && l.JSONLines()
}

// WriteJSONLine hands line to the wrapped handler, then flushes the buffer
// if line is a warning or worse.
func (h flushOnWarn) WriteJSONLine(level slog.Level, line []byte) error {
	err := h.Handler.(middleware.JSONLines).WriteJSONLine(level, line)
	if level >= slog.LevelWarn {
		if ferr := h.buf.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

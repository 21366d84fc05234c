package main

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
)

// lockedBuffer is a bytes.Buffer safe for the flush goroutine and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestLogBufferInfoLinesAppearAfterTheFlushInterval(t *testing.T) {
	out := &lockedBuffer{}
	buf := newLogBuffer(out, 300*time.Millisecond)
	defer buf.Close()
	if _, err := buf.Write([]byte("line one\n")); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "" {
		t.Fatalf("written at once: %q", got)
	}
	deadline := time.Now().Add(time.Minute) // far above the flush interval
	for out.String() == "" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := out.String(); got != "line one\n" {
		t.Fatalf("after the interval: %q", got)
	}
}

func TestLoggerWritesWarningsAtOnce(t *testing.T) {
	out := &lockedBuffer{}
	log, buf := newLogger(out, "info", "json")
	defer buf.Close()
	log.Info("request", "path", "/a")
	if got := out.String(); got != "" {
		t.Fatalf("info line written before the flush: %q", got)
	}
	log.With("k", "v").Warn("slow")
	got := out.String()
	if !strings.Contains(got, `"msg":"request"`) || !strings.Contains(got, `"msg":"slow"`) || !strings.Contains(got, `"k":"v"`) {
		t.Fatalf("after a warning: %q", got)
	}
}

func TestLogBufferCloseFlushesAndWritesThroughAfter(t *testing.T) {
	out := &lockedBuffer{}
	log, buf := newLogger(out, "info", "text")
	log.Info("before close")
	if err := buf.Close(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "msg=\"before close\"") {
		t.Fatalf("after Close: %q", got)
	}
	log.Info("after close")
	if got := out.String(); !strings.Contains(got, "msg=\"after close\"") {
		t.Fatalf("a line after Close is not written through: %q", got)
	}
	if err := buf.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// TestServeLoggerTakesAccessLines checks that the JSON logger of serve
// takes the edge's hand-made access lines (through ContextLog and
// flushOnWarn) and that the text one does not, and that a line at warn
// level is flushed at once, as a record would be.
func TestServeLoggerTakesAccessLines(t *testing.T) {
	out := &lockedBuffer{}
	log, buf := newLogger(out, "info", "json")
	defer buf.Close()
	lines, ok := log.Handler().(middleware.JSONLines)
	if !ok || !lines.JSONLines() {
		t.Fatal("the JSON logger takes no hand-made lines")
	}
	if err := lines.WriteJSONLine(slog.LevelWarn, []byte("{\"a\":1}\n")); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "{\"a\":1}\n" {
		t.Errorf("a warn line was not flushed at once: %q", got)
	}
	text, tbuf := newLogger(&lockedBuffer{}, "info", "text")
	defer tbuf.Close()
	if l, ok := text.Handler().(middleware.JSONLines); ok && l.JSONLines() {
		t.Error("the text logger claims to take JSON lines")
	}
}

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"
	"google.golang.org/protobuf/proto"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
)

// otlpReceiver is an in-process collector: it accepts OTLP/HTTP protobuf
// trace exports and keeps their spans.
type otlpReceiver struct {
	mu    sync.Mutex
	spans []*tracepb.Span
}

func (o *otlpReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "unexpected "+r.URL.Path+" "+r.Header.Get("Content-Type"), http.StatusBadRequest)
		return
	}
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	raw, _ := io.ReadAll(body)
	var req coltrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(raw, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	o.mu.Lock()
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			o.spans = append(o.spans, ss.GetSpans()...)
		}
	}
	o.mu.Unlock()
	out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

// TestTracingOTLP: with --otlp-endpoint, a request on SQLite storage is a
// server span named for its route, with a child span per database query,
// exported to the collector; the access log names the trace.
func TestTracingOTLP(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the embedded directory: skipped under -short")
	}
	recv := &otlpReceiver{}
	collector := httptest.NewServer(recv)
	defer collector.Close()
	var logs syncBuffer
	log := slog.New(middleware.ContextLog(slog.NewJSONHandler(&logs, nil)))
	cfg := serveConfig{
		HTTP:     httpapi.Config{Addr: "127.0.0.1:0"},
		Database: databaseConfig{URL: "sqlite:" + filepath.Join(t.TempDir(), "p.db")},
		Tracing:  tracingConfig{OTLPEndpoint: collector.URL},
	}
	opts, err := options(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	var srv *httpapi.Server
	a := fxtest.New(t, opts, fx.Populate(&srv))
	a.RequireStart()
	res, err := http.Post("http://"+srv.Addr()+"/api/v1/register", "application/json",
		strings.NewReader(`{"email":"trace@example.com","password":"correct horse battery"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("register = %d", res.StatusCode)
	}
	a.RequireStop() // sends the queued spans

	recv.mu.Lock()
	defer recv.mu.Unlock()
	var server *tracepb.Span
	for _, s := range recv.spans {
		if s.GetKind() == tracepb.Span_SPAN_KIND_SERVER && s.GetName() == "POST /api/v1/register" {
			server = s
		}
	}
	if server == nil {
		names := []string{}
		for _, s := range recv.spans {
			names = append(names, s.GetName())
		}
		t.Fatalf("no server span for POST /api/v1/register among %d spans: %v", len(recv.spans), names)
	}
	var queries []string
	for _, s := range recv.spans {
		if bytes.Equal(s.GetParentSpanId(), server.GetSpanId()) && s.GetKind() == tracepb.Span_SPAN_KIND_CLIENT {
			for _, a := range s.GetAttributes() {
				if a.GetKey() == "db.statement" {
					queries = append(queries, a.GetValue().GetStringValue())
				}
			}
		}
	}
	if len(queries) == 0 || !containsPrefix(queries, "INSERT") {
		t.Errorf("child query spans of the server span: %q, want the user's INSERT among them", queries)
	}
	traceID := hex.EncodeToString(server.GetTraceId())
	found := false
	for _, line := range strings.Split(logs.String(), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == "request" && rec["route"] == "POST /api/v1/register" {
			found = rec["trace_id"] == traceID && rec["request_id"] != ""
		}
	}
	if !found {
		t.Errorf("no access log line with trace_id %s and a request_id:\n%s", traceID, logs.String())
	}
}

func containsPrefix(ss []string, prefix string) bool {
	for _, s := range ss {
		if strings.HasPrefix(strings.TrimSpace(s), prefix) {
			return true
		}
	}
	return false
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

package middleware_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
)

// timeField is the time of an access log line, the one field two serves of
// the same request cannot share.
var timeField = regexp.MustCompile(`^\{"time":"[^"]+",`)

// TestAccessLineIsSlogs serves the same requests through an edge whose log
// takes hand-made lines (middleware.NewJSONHandler) and through one logging
// by slog's own JSON handler: the lines must be the same bytes, time and
// duration aside (floats are jsonappend.Float, checked against
// encoding/json, which slog's JSON handler writes floats with), for
// hostile paths too.
func TestAccessLineIsSlogs(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /p/{x}", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
		_, _ = w.Write([]byte(strings.Repeat("x", len(r.URL.Path))))
	})
	var hand, slogs bytes.Buffer
	handEdge := middleware.NewHandler(mux, middleware.Options{
		Log: slog.New(middleware.ContextLog(middleware.NewJSONHandler(&hand, slog.LevelInfo)))})
	slogEdge := middleware.NewHandler(mux, middleware.Options{
		Log: slog.New(middleware.ContextLog(slog.NewJSONHandler(&slogs, nil)))})
	paths := []string{"/p/plain", "/p/q%22uote%5Cback", "/p/%3Ca&b%3E", "/p/%00%01%08%0C%0A%0D%09%1F%7F",
		"/p/bad%FFutf8%C3", "/p/line%E2%80%A8sep%E2%80%A9", "/p/%E0%A4%A8%E0%A4%88", "/nowhere", "/p/"}
	for i, p := range paths {
		for _, h := range []http.Handler{handEdge, slogEdge} {
			r := httptest.NewRequest(http.MethodGet, p, nil)
			r.Header.Set("X-Request-Id", "id-"+strconv.Itoa(i)+"_.9")
			h.ServeHTTP(httptest.NewRecorder(), r)
		}
		h, s := hand.String(), slogs.String()
		hand.Reset()
		slogs.Reset()
		if !timeField.MatchString(h) || !strings.HasSuffix(h, "}\n") || strings.Count(h, "\n") != 1 {
			t.Errorf("GET %s: hand-made line %q is not one JSON line", p, h)
			continue
		}
		if got, want := withoutTimes(h), withoutTimes(s); got != want {
			t.Errorf("GET %s: hand-made line\n%s\nslog's\n%s", p, got, want)
		}
	}
}

// withoutTimes replaces a line's time and duration with fixed values.
func withoutTimes(line string) string {
	line = timeField.ReplaceAllString(line, `{"time":"T",`)
	return regexp.MustCompile(`"duration_ms":[0-9.e-]+`).ReplaceAllString(line, `"duration_ms":D`)
}

// TestAccessLineRespectsLevel logs no access line when info is off.
func TestAccessLineRespectsLevel(t *testing.T) {
	var b bytes.Buffer
	h := middleware.NewHandler(http.NewServeMux(), middleware.Options{
		Log: slog.New(middleware.ContextLog(middleware.NewJSONHandler(&b, slog.LevelWarn)))})
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/x", nil))
	if b.Len() != 0 {
		t.Errorf("access line at warn level: %q", b.String())
	}
}

// TestDerivedJSONHandlerTakesNoLines checks that a handler with attributes
// added writes records itself: a hand-made line would lack them.
func TestDerivedJSONHandlerTakesNoLines(t *testing.T) {
	var b bytes.Buffer
	log := slog.New(middleware.ContextLog(middleware.NewJSONHandler(&b, slog.LevelInfo))).With("server", "pprof")
	h := middleware.NewHandler(http.NewServeMux(), middleware.Options{Log: log})
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/x", nil))
	if !strings.Contains(b.String(), `"server":"pprof"`) {
		t.Errorf("access line of a derived logger = %q, want its server attribute", b.String())
	}
	if l, ok := log.Handler().(middleware.JSONLines); ok && l.JSONLines() {
		t.Error("a derived handler claims hand-made lines")
	}
}

package httpapi_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
)

// TestServerErrorsLogThroughTheEdge: a 500 (its cause hidden from the
// client) and a panic are logged, cause included, to the logger given to
// the edge, not to slog's default logger.
func TestServerErrorsLogThroughTheEdge(t *testing.T) {
	var edge, global bytes.Buffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&global, nil)))
	mux := http.NewServeMux()
	api := httpapi.NewAPI(mux)
	huma.Get(api, "/boom", func(context.Context, *struct{}) (*struct{}, error) { return nil, errors.New("disk on fire") })
	mux.HandleFunc("GET /panic", func(http.ResponseWriter, *http.Request) { panic("wires crossed") })
	h := middleware.NewHandler(mux, middleware.Options{Log: slog.New(slog.NewTextHandler(&edge, nil))})
	for path, cause := range map[string]string{"/boom": "disk on fire", "/panic": "wires crossed"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), `"code":"internal_error"`) || strings.Contains(rec.Body.String(), cause) {
			t.Errorf("GET %s = %d %s, want the 500 envelope without the cause", path, rec.Code, rec.Body)
		}
		if !strings.Contains(edge.String(), cause) {
			t.Errorf("GET %s: the edge's log lacks %q:\n%s", path, cause, edge.String())
		}
	}
	if global.Len() != 0 {
		t.Errorf("slog's default logger was used:\n%s", global.String())
	}
}

package middleware_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
)

// gzipServer serves handlers on a mux behind the whole edge.
func gzipServer(t *testing.T, routes map[string]http.HandlerFunc) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	for p, h := range routes {
		mux.HandleFunc(p, h)
	}
	srv := httptest.NewServer(middleware.NewHandler(mux, middleware.Options{}))
	t.Cleanup(srv.Close)
	return srv
}

// getGzip asks for path accepting gzip, without the transport's own
// transparent decompression.
func getGzip(t *testing.T, srv *httptest.Server, path string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// TestGzipFlush: a streaming handler's flushed part reaches the client,
// compressed, while the handler still runs.
func TestGzipFlush(t *testing.T) {
	first := []byte(strings.Repeat(`{"line":"streamed"}`+"\n", 200)) // 4 KB
	release := make(chan struct{})
	srv := gzipServer(t, map[string]http.HandlerFunc{"GET /stream": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		_, _ = w.Write(first)
		if err := http.NewResponseController(w).Flush(); err != nil {
			t.Errorf("Flush: %v", err)
		}
		select {
		case <-release:
		case <-time.After(2 * time.Minute): // beyond the test's wait, so only a flush passes
		}
		_, _ = w.Write([]byte(`{"line":"last"}` + "\n"))
	}})
	var (
		res  *http.Response
		zr   *gzip.Reader
		got  = make([]byte, len(first))
		done = make(chan error, 1)
	)
	go func() { // headers and the first part, while the handler waits
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/stream", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		var err error
		if res, err = srv.Client().Do(req); err == nil {
			if zr, err = gzip.NewReader(res.Body); err == nil {
				_, err = io.ReadFull(zr, got)
			}
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil || !bytes.Equal(got, first) {
			t.Fatalf("flushed part: %v", err)
		}
	case <-time.After(time.Minute):
		close(release)
		t.Fatal("the flushed part did not arrive while the handler ran: Flush does not reach the connection")
	}
	defer res.Body.Close()
	if res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("headers = %v", res.Header)
	}
	close(release)
	rest, err := io.ReadAll(zr)
	if err != nil || string(rest) != `{"line":"last"}`+"\n" {
		t.Fatalf("rest = %q, %v", rest, err)
	}
}

// TestGzipSkips: small answers and already-compressed content types pass
// as they are, with Vary still set; a large JSON answer is compressed.
func TestGzipSkips(t *testing.T) {
	big := strings.Repeat("x", 4096)
	srv := gzipServer(t, map[string]http.HandlerFunc{
		"GET /small": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"success":true}`)
		},
		"GET /png": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "image/png")
			_, _ = io.WriteString(w, big)
		},
		"GET /zip": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/zip")
			_, _ = io.WriteString(w, big)
		},
		"GET /json": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"x":"`+big+`"}`)
		},
	})
	for path, wantGzip := range map[string]bool{"/small": false, "/png": false, "/zip": false, "/json": true} {
		res := getGzip(t, srv, path)
		body, _ := io.ReadAll(res.Body)
		if got := res.Header.Get("Content-Encoding") == "gzip"; got != wantGzip {
			t.Errorf("%s: compressed = %v, want %v", path, got, wantGzip)
		}
		if !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: Vary = %q", path, res.Header.Get("Vary"))
		}
		if !wantGzip && path != "/small" && string(body) != big {
			t.Errorf("%s: body altered (%d bytes)", path, len(body))
		}
	}
	// A client that refuses gzip gets the large answer plain.
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/json", nil)
	req.Header.Set("Accept-Encoding", "gzip;q=0, identity")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip;q=0 still compressed")
	}
}

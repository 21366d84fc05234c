package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestHealthcheck: 2xx is healthy; another status, no answer or a hang
// within the timeout is not.
func TestHealthcheck(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, _ *http.Request) {})
	mux.HandleFunc("/down", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })
	release := make(chan struct{})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	defer close(release)

	if _, err := run(t, "healthcheck", srv.URL+"/ok"); err != nil {
		t.Errorf("healthcheck of a 200: %v", err)
	}
	for _, path := range []string{"/down", "/missing"} {
		if _, err := run(t, "healthcheck", srv.URL+path); err == nil {
			t.Errorf("healthcheck of %s succeeded", path)
		}
	}
	start := time.Now()
	// The server hangs until the test ends: the bound, five times the
	// probe's timeout, allows for a loaded machine.
	if _, err := run(t, "healthcheck", srv.URL+"/hang"); err == nil || time.Since(start) > 5*healthcheckTimeout {
		t.Errorf("healthcheck of a hanging server: err %v after %s, want an error after about %s (at most %s)", err, time.Since(start), healthcheckTimeout, 5*healthcheckTimeout)
	}
	if _, err := run(t, "healthcheck", "http://127.0.0.1:1/healthz"); err == nil {
		t.Error("healthcheck of a closed port succeeded")
	}
}

package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/ports/porttest"
)

// TestJobSurvivesKillSQLite kills the serving process (kill -9) while it
// analyses a page; after a restart on the same file, River's rescuer runs
// the analysis again and the report ends generated.
func TestJobSurvivesKillSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts a server: not under -short")
	}
	testJobSurvivesKill(t, "sqlite:"+filepath.Join(t.TempDir(), "p.db"))
}

// TestJobSurvivesKillPostgres is TestJobSurvivesKillSQLite on Postgres.
func TestJobSurvivesKillPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts a server: not under -short")
	}
	db, url := newDatabase(t)
	if _, err := postgres.ImportDataset(context.Background(), db, porttest.PostalDataset()); err != nil {
		t.Fatal(err)
	}
	testJobSurvivesKill(t, url)
}

// hangingSite answers /hang only from its second request on: the first
// hangs until its client goes away, and is announced on hit.
type hangingSite struct {
	*httptest.Server
	mu   sync.Mutex
	hits int
	hit  chan struct{}
}

func newHangingSite(t *testing.T) *hangingSite {
	s := &hangingSite{hit: make(chan struct{}, 8)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/hang" {
			http.NotFound(w, r)
			return
		}
		s.mu.Lock()
		s.hits++
		first := s.hits == 1
		s.mu.Unlock()
		s.hit <- struct{}{}
		if first {
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, `<!doctype html><html lang="en"><head><title>Back again</title></head><body><h1>Hi</h1></body></html>`)
	}))
	t.Cleanup(s.Close)
	return s
}

func testJobSurvivesKill(t *testing.T, dbURL string) {
	bin := buildPinsight(t)
	site := newHangingSite(t)
	addr := "127.0.0.1:" + freePort(t)
	base := "http://" + addr
	start := func() *exec.Cmd {
		srv := exec.Command(bin, "serve", "--addr", addr, "--database-url", dbURL, "--rate-limit", "off",
			"--allow-private-targets", "--fetch-timeout", "2s", "--write-timeout", "30s",
			"--host-analyses-per-minute", "0", "--address-analyses-per-minute", "0", "--log-level", "warn")
		srv.Stdout, srv.Stderr = os.Stderr, os.Stderr
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
		waitFor(t, "server up", 3*time.Minute, func() bool { return status(base+"/readyz") == 200 })
		return srv
	}
	srv := start()
	token := crashLogin(t, base)
	var created struct {
		Data struct {
			ID     int64  `json:"id"`
			Status string `json:"status"`
		} `json:"data"`
	}
	if st := crashCall(t, http.MethodPost, base+"/api/v1/reports?wait=0", token, map[string]any{"url": site.URL + "/hang"}, &created); st != http.StatusAccepted {
		t.Fatalf("create = %d, want 202", st)
	}
	select {
	case <-site.hit:
	case <-time.After(2 * time.Minute):
		t.Fatal("the job never fetched the page")
	}
	if err := srv.Process.Kill(); err != nil { // SIGKILL mid-analysis
		t.Fatal(err)
	}
	_ = srv.Wait()
	path := base + "/api/v1/reports/" + strconv.FormatInt(created.Data.ID, 10)

	start()
	var got struct {
		Data struct {
			Status   string `json:"status"`
			Attempts int    `json:"attempts"`
			Score    int    `json:"score"`
		} `json:"data"`
	}
	waitFor(t, "the report generated after the restart", 3*time.Minute, func() bool {
		crashCall(t, http.MethodGet, path, token, nil, &got)
		return got.Data.Status == "generated" || got.Data.Status == "failed"
	})
	if got.Data.Status != "generated" || got.Data.Attempts != 2 {
		t.Errorf("report after the restart = %+v, want generated on its second attempt", got.Data)
	}
}

// crashLogin registers a user and returns an API key.
func crashLogin(t *testing.T, base string) string {
	t.Helper()
	creds := map[string]any{"email": "crash@example.com", "password": "correct horse battery staple"}
	if st := crashCall(t, http.MethodPost, base+"/api/v1/register", "", creds, nil); st != http.StatusCreated {
		t.Fatalf("register = %d", st)
	}
	var tok struct {
		Data struct{ Token string } `json:"data"`
	}
	if st := crashCall(t, http.MethodPost, base+"/api/v1/login", "", creds, &tok); st != http.StatusOK {
		t.Fatalf("login = %d", st)
	}
	return tok.Data.Token
}

// crashCall sends body as JSON with the key and decodes the answer.
func crashCall(t *testing.T, method, url, key string, body, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	if out != nil {
		_ = json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode
}

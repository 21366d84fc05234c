package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/httpapi"
)

// TestRestartKeepsAccountsAndReports runs the real graph on a sqlite: file
// (the default storage), registers, logs in and analyses a local page,
// stops, starts a new server on the same file: the key still opens the
// account and the report is still listed.
func TestRestartKeepsAccountsAndReports(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, `<!doctype html><html lang="en"><head><title>A page worth keeping</title></head><body><h1>Kept</h1></body></html>`)
	}))
	defer page.Close()
	target, _ := url.Parse(page.URL)
	cfg := serveConfig{
		HTTP:     httpapi.Config{Addr: "127.0.0.1:0"},
		Database: databaseConfig{URL: "sqlite:" + filepath.Join(t.TempDir(), "pinsight.db")},
		Site:     siteConfig{Fetch: fetch.Config{AllowTargets: []string{target.Host}}},
	}
	start := func() (*fxtest.App, string) {
		var srv *httpapi.Server
		a := fxtest.New(t, mustOptions(t, cfg), fx.Populate(&srv))
		a.RequireStart()
		return a, "http://" + srv.Addr()
	}

	a, base := start()
	call(t, base, http.MethodPost, "/api/v1/register", "", `{"email":"ada@example.com","password":"correct horse"}`, http.StatusCreated)
	key := call(t, base, http.MethodPost, "/api/v1/login", "", `{"email":"ada@example.com","password":"correct horse"}`, http.StatusOK)["token"].(string)
	report := call(t, base, http.MethodPost, "/api/v1/reports", key, `{"url":"`+page.URL+`/"}`, http.StatusCreated)
	ready := call(t, base, http.MethodGet, "/readyz", "", "", http.StatusOK)
	if raw, _ := json.Marshal(ready); !strings.Contains(string(raw), `"name":"database","ready":true`) {
		t.Errorf("/readyz lacks a ready database component: %s", raw)
	}
	a.RequireStop()

	a, base = start()
	defer a.RequireStop()
	if got := call(t, base, http.MethodGet, "/api/v1/account", key, "", http.StatusOK)["email"]; got != "ada@example.com" {
		t.Errorf("after a restart the key opens %v", got)
	}
	list := call(t, base, http.MethodGet, "/api/v1/reports", key, "", http.StatusOK)
	reports, _ := list["reports"].([]any)
	if len(reports) != 1 || reports[0].(map[string]any)["id"] != report["id"] || reports[0].(map[string]any)["url"] != page.URL+"/" {
		t.Errorf("after a restart the reports are %v, want report %v", list["reports"], report["id"])
	}
}

// call sends one request and returns the body's data, failing unless the
// status is want.
func call(t *testing.T, base, method, path, key, body string, want int) map[string]any {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var env struct {
		Data map[string]any `json:"data"`
	}
	if res.StatusCode != want || json.Unmarshal(raw, &env) != nil {
		t.Fatalf("%s %s = %d %s, want %d", method, path, res.StatusCode, raw, want)
	}
	return env.Data
}

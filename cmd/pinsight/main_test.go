package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/app"
)

func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(io.Discard)
	root.SetArgs(args)
	err := root.Execute()
	return strings.TrimSpace(out.String()), err
}

func TestDigipinCommands(t *testing.T) {
	if got, err := run(t, "digipin", "encode", "28.622788", "77.213033"); err != nil || got != "39J-49L-L8T4" {
		t.Errorf("digipin encode = %q, %v", got, err)
	}
	if got, err := run(t, "digipin", "decode", "39J-49L-L8T4"); err != nil || got != "28.622793 77.213049" {
		t.Errorf("digipin decode = %q, %v", got, err)
	}
	for _, args := range [][]string{{"digipin", "encode", "x", "77"}, {"digipin", "encode", "1", "77"}, {"digipin", "decode", "nope"}} {
		if _, err := run(t, args...); err == nil {
			t.Errorf("%v succeeded, want an error", args)
		}
	}
}

func TestEnvBinding(t *testing.T) {
	t.Setenv("PINSIGHT_ADDR", "127.0.0.1:9")
	cmd := newServeCmd()
	if err := bindEnv(cmd); err != nil {
		t.Fatal(err)
	}
	if got, _ := cmd.Flags().GetString("addr"); got != "127.0.0.1:9" {
		t.Errorf("addr from env = %q", got)
	}
	t.Setenv("PINSIGHT_WRITE_TIMEOUT", "soon")
	if err := bindEnv(newServeCmd()); err == nil || !strings.Contains(err.Error(), "PINSIGHT_WRITE_TIMEOUT") {
		t.Errorf("bad env value: err = %v, want one naming the variable", err)
	}
}

// mustOptions is options for a test.
func mustOptions(t *testing.T, cfg serveConfig) fx.Option {
	t.Helper()
	o, err := options(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestOptionsValidate(t *testing.T) {
	for _, cfg := range []serveConfig{{}, {Database: postgres.Config{URL: "postgres://u:p@127.0.0.1:1/db"}}} {
		if err := fx.ValidateApp(mustOptions(t, cfg)); err != nil {
			t.Errorf("database %q: %v", cfg.Database.URL, err)
		}
	}
}

func TestDatabaseRequired(t *testing.T) {
	for _, args := range [][]string{{"migrate"}, {"user", "create", "--email", "a@example.com"}} {
		if _, err := run(t, args...); err == nil || !strings.Contains(err.Error(), "--database-url") {
			t.Errorf("%v without a database: err = %v", args, err)
		}
	}
}

// TestServeStarts runs the real fx graph on a free port and asks it for the
// DIGIPIN info.
func TestServeStarts(t *testing.T) {
	var srv *httpapi.Server
	cfg := serveConfig{HTTP: httpapi.Config{Addr: "127.0.0.1:0"}}
	var reports *app.Reports
	a := fxtest.New(t, mustOptions(t, cfg), fx.Populate(&srv, &reports))
	a.RequireStart()
	defer a.RequireStop()
	if reports == nil {
		t.Fatal("the reports use case is not wired: the real analyser is missing from the graph")
	}
	if m, err := http.Get("http://" + srv.Addr() + "/metrics"); err != nil {
		t.Fatal(err)
	} else {
		raw, _ := io.ReadAll(m.Body)
		m.Body.Close()
		for _, want := range []string{"pinsight_analysis_slots 4", "pinsight_analysis_slots_in_use 0", "pinsight_postal_offices 165625"} {
			if !strings.Contains(string(raw), want) {
				t.Errorf("/metrics lacks %q", want)
			}
		}
	}
	res, err := http.Get("http://" + srv.Addr() + "/api/v1/digipin/info")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body struct {
		Success bool
		Data    struct {
			ValidCharacters []string `json:"valid_characters"`
		}
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || res.StatusCode != 200 || len(body.Data.ValidCharacters) != 16 {
		t.Errorf("GET info = %d %+v %v", res.StatusCode, body, err)
	}
}

func TestSiteOptionsValidation(t *testing.T) {
	bad := []serveConfig{
		{Site: siteConfig{Fetch: fetchConfig(90 * time.Second)}, HTTP: httpapi.Config{WriteTimeout: time.Minute}},
		{Site: siteConfig{CookieKey: "abcd"}},
		{Boundaries: boundaryConfig{File: "testdata/does-not-exist.geojson"}},
	}
	for _, cfg := range bad {
		if _, err := options(cfg, slog.New(slog.DiscardHandler)); err == nil {
			t.Errorf("options(%+v) accepted a bad configuration", cfg)
		}
	}
}

func fetchConfig(timeout time.Duration) fetch.Config { return fetch.Config{Timeout: timeout} }

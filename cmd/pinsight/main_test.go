package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/adapters/sqlite/migrations"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/account"
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
func mustOptions(t testing.TB, cfg serveConfig) fx.Option {
	t.Helper()
	o, err := options(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	// Started as the binary allows (--start-timeout's default): fxtest's
	// 15 s is short for migrations and the directory's load while the
	// whole suite loads the machine.
	return fx.Options(o, fx.StartTimeout(2*time.Minute))
}

func TestOptionsValidate(t *testing.T) {
	sqliteURL := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
	for _, url := range []string{"memory:", sqliteURL, "postgres://u:p@127.0.0.1:1/db", "postgresql://u:p@127.0.0.1:1/db"} {
		if err := fx.ValidateApp(mustOptions(t, serveConfig{Database: databaseConfig{URL: url}})); err != nil {
			t.Errorf("database %q: %v", url, err)
		}
	}
}

// TestDatabaseURLErrors: a --database-url that names no known storage is an
// error naming the flag, never a silent fallback to memory.
func TestDatabaseURLErrors(t *testing.T) {
	for _, url := range []string{"", "mysql://u@h/db", "pinsight.db", "/var/lib/pinsight.db", "file:p.db"} {
		_, err := options(serveConfig{Database: databaseConfig{URL: url}}, slog.New(slog.DiscardHandler))
		if err == nil || !strings.Contains(err.Error(), "--database-url") {
			t.Errorf("serve with database %q: err = %v, want one about --database-url", url, err)
		} else if url != "" && !strings.Contains(err.Error(), "memory:, postgres:, postgresql:, sqlite:") {
			t.Errorf("serve with database %q: err = %v, want the known schemes listed", url, err)
		}
	}
	t.Setenv("PINSIGHT_DATABASE_URL", "")
	for _, args := range [][]string{{"serve"}, {"migrate"}, {"user", "create", "--email", "a@example.com"}} {
		if _, err := run(t, args...); !errors.Is(err, errEmptyDatabaseURL) {
			t.Errorf("%v with PINSIGHT_DATABASE_URL empty: err = %v, want errEmptyDatabaseURL", args, err)
		}
	}
	if _, err := run(t, "migrate", "--database-url", "memory:"); err == nil || !strings.Contains(err.Error(), "no schema") {
		t.Errorf("migrate on memory: err = %v", err)
	}
	if _, err := run(t, "user", "create", "--email", "a@example.com", "--database-url", "memory:"); err == nil || !strings.Contains(err.Error(), "/api/v1/register") {
		t.Errorf("user create on memory: err = %v", err)
	}
}

// TestSQLiteCommands runs migrate and user create on a sqlite: file: the
// key printed opens the account a server on that file then serves.
func TestSQLiteCommands(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
	n := len(migrations.Migrations.Sorted())
	if out, err := run(t, "migrate", "--database-url", url, "--status"); err != nil || strings.Count(out, " pending") != n {
		t.Errorf("migrate --status on a new file = %q, %v", out, err)
	}
	if out, err := run(t, "migrate", "--database-url", url); err != nil || strings.Count(out, "\n")+1 != n {
		t.Errorf("migrate = %q, %v", out, err)
	}
	if out, err := run(t, "migrate", "--database-url", url); err != nil || out != "nothing to do" {
		t.Errorf("second migrate = %q, %v", out, err)
	}
	key, err := run(t, "user", "create", "--email", "ops@example.com", "--database-url", url)
	if err != nil || !strings.HasPrefix(key, "psk_") {
		t.Fatalf("user create = %q, %v", key, err)
	}
	if _, err := run(t, "user", "create", "--email", "ops@example.com", "--database-url", url); err == nil {
		t.Error("a second user create with the same e-mail succeeded")
	}
	db, err := sqlite.Open(context.Background(), sqlite.Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k, err := sqlite.NewAccountStore(db).KeyByHash(context.Background(), account.HashKey(key), time.Now())
	if u, _ := sqlite.NewAccountStore(db).UserByID(context.Background(), k.UserID); err != nil || u.Email != "ops@example.com" {
		t.Errorf("the printed key opens %+v, %v", u, err)
	}
	if out, err := run(t, "migrate", "--database-url", url, "--down"); err != nil || out == "nothing to do" {
		t.Errorf("migrate --down = %q, %v", out, err)
	}
}

// TestServeStarts runs the real fx graph on a free port and asks it for the
// DIGIPIN info.
func TestServeStarts(t *testing.T) {
	var srv *httpapi.Server
	cfg := serveConfig{HTTP: httpapi.Config{Addr: "127.0.0.1:0"}, Database: databaseConfig{URL: "memory:"}}
	var reports *reports.Reports
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
		cfg.Database.URL = "memory:"
		if _, err := options(cfg, slog.New(slog.DiscardHandler)); err == nil {
			t.Errorf("options(%+v) accepted a bad configuration", cfg)
		}
	}
}

func fetchConfig(timeout time.Duration) fetch.Config { return fetch.Config{Timeout: timeout} }

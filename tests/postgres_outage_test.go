package tests

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/testcontainers/testcontainers-go"
	tcpostgres "github.com/testcontainers/testcontainers-go/modules/postgres"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/ports/porttest"
)

// freePort returns a loopback TCP port nobody listens on now.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return fmt.Sprint(l.Addr().(*net.TCPAddr).Port)
}

// buildPinsight builds the binary once per test.
func buildPinsight(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "pinsight")
	out, err := exec.Command("go", "build", "-o", bin, "../cmd/pinsight").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestServeWithoutDatabase: serve refuses to start, with a clear message and
// a non-zero exit, when the database cannot be reached.
func TestServeWithoutDatabase(t *testing.T) {
	bin := buildPinsight(t)
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:"+freePort(t),
		"--database-url", "postgres://pinsight:pinsight@127.0.0.1:"+freePort(t)+"/pinsight?sslmode=disable",
		"--database-connect-timeout", "2s")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errorsAs(err, &exit) || exit.ExitCode() == 0 {
		t.Fatalf("serve with an unreachable database: err = %v, want a non-zero exit\n%s", err, out)
	}
	if !strings.Contains(string(out), "unavailable") {
		t.Errorf("serve's message does not say the database is unavailable:\n%s", out)
	}
}

// TestServeSurvivesDatabaseOutage stops the database under a running server:
// postal endpoints keep answering from the instance's in-memory replica,
// endpoints that need the database (a login) answer 503 in the envelope,
// and /readyz is not ready; once the database is back, everything recovers
// without a restart.
func TestServeSurvivesDatabaseOutage(t *testing.T) {
	image := postGIS.image(t)
	ctx := context.Background()
	pgPort := freePort(t)
	c, err := tcpostgres.Run(ctx, image,
		tcpostgres.WithDatabase("pinsight"), tcpostgres.WithUsername("pinsight"), tcpostgres.WithPassword("pinsight"),
		testcontainers.WithHostConfigModifier(func(hc *container.HostConfig) {
			hc.PortBindings = network.PortMap{network.MustParsePort("5432/tcp"): {{HostIP: netip.MustParseAddr("127.0.0.1"), HostPort: pgPort}}}
		}),
		testcontainers.WithWaitStrategy(
			wait.ForLog("database system is ready to accept connections").WithOccurrence(2).WithStartupTimeout(2*time.Minute),
			wait.ForListeningPort("5432/tcp")),
	)
	testcontainers.CleanupContainer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	dbURL := "postgres://pinsight:pinsight@127.0.0.1:" + pgPort + "/pinsight?sslmode=disable"
	db, err := postgres.Open(ctx, postgres.Config{URL: dbURL})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := postgres.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if _, err := postgres.ImportDataset(ctx, db, porttest.PostalDataset()); err != nil {
		t.Fatal(err)
	}
	db.Close()

	addr := "127.0.0.1:" + freePort(t)
	srv := exec.Command(buildPinsight(t), "serve", "--addr", addr, "--database-url", dbURL,
		"--database-connect-timeout", "2s", "--database-statement-timeout", "3s", "--rate-limit", "off")
	srv.Stdout, srv.Stderr = os.Stderr, os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	base := "http://" + addr
	lookup := base + "/api/v1/pincodes/800001"
	login := base + "/api/v1/login"
	waitFor(t, "server up with the database", 30*time.Second, func() bool { return status(lookup) == 200 })
	if got := postStatus(login); got != 401 {
		t.Fatalf("login of an unknown user with the database up = %d, want 401", got)
	}

	stopTimeout := 5 * time.Second
	if err := c.Stop(ctx, &stopTimeout); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "503 while the database is down", 30*time.Second, func() bool { return postStatus(login) == 503 })
	body := postJSON(t, login)
	if body["success"] != false || body["code"] != "unavailable" {
		t.Errorf("login body during the outage = %v, want the envelope with code unavailable", body)
	}
	if got := status(lookup); got != 200 {
		t.Errorf("postal lookup during the outage = %d, want 200 from the in-memory replica", got)
	}
	if got := status(base + "/readyz"); got == 200 {
		t.Errorf("/readyz during the outage = %d, want not ready", got)
	}

	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "recovery once the database is back", 60*time.Second, func() bool { return postStatus(login) == 401 })
	waitFor(t, "/readyz 200 once the database is back", 10*time.Second, func() bool { return status(base+"/readyz") == 200 })
}

// loginBody is a login of a user nobody registered.
const loginBody = `{"email":"nobody@example.com","password":"not a real password"}`

// postStatus posts loginBody to url and returns the status (0: no answer).
func postStatus(url string) int {
	client := http.Client{Timeout: 10 * time.Second}
	resp, err := client.Post(url, "application/json", strings.NewReader(loginBody))
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// postJSON posts loginBody to url and decodes the answer.
func postJSON(t *testing.T, url string) map[string]any {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(loginBody))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	return body
}

func status(url string) int {
	client := http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

func waitFor(t *testing.T, what string, limit time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }

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

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/domain/review"
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

// outageServer starts a PostGIS container of the test's own (to be stopped
// or paused), imports the test dataset, runs seed on it (when not nil) and
// starts `pinsight serve` on it, with dbTimeout as the database's connect
// and statement timeout. It returns the container and the server's base
// URL once the server answers readyPath (200), a path that must not be one
// the test needs unasked.
func outageServer(t *testing.T, seed func(db *postgres.DB), readyPath string, dbTimeout time.Duration) (*tcpostgres.PostgresContainer, string) {
	t.Helper()
	c, dbURL := outageDatabase(t, seed)
	return c, outageInstance(t, buildPinsight(t), dbURL, readyPath, dbTimeout)
}

// outageDatabase starts a PostGIS container of the test's own on a fixed
// host port (so a restarted container is found at the same address),
// migrates it, imports the test dataset and runs seed on it (when not
// nil). It returns the container and its URL.
func outageDatabase(t *testing.T, seed func(db *postgres.DB)) (*tcpostgres.PostgresContainer, string) {
	t.Helper()
	ctx := context.Background()
	pgPort := freePort(t)
	c := runPostGIS(t, testcontainers.WithHostConfigModifier(func(hc *container.HostConfig) {
		hc.PortBindings = network.PortMap{network.MustParsePort("5432/tcp"): {{HostIP: netip.MustParseAddr("127.0.0.1"), HostPort: pgPort}}}
	}))
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
	if seed != nil {
		seed(db)
	}
	db.Close()
	return c, dbURL
}

// outageInstance starts bin's `serve` on dbURL with dbTimeout as the
// database's connect and statement timeout, and returns its base URL once
// it answers readyPath (200).
func outageInstance(t *testing.T, bin, dbURL, readyPath string, dbTimeout time.Duration) string {
	t.Helper()
	addr := "127.0.0.1:" + freePort(t)
	srv := exec.Command(bin, "serve", "--addr", addr, "--database-url", dbURL,
		"--database-connect-timeout", dbTimeout.String(), "--database-statement-timeout", dbTimeout.String(), "--rate-limit", "off", "--auth-rate-limit", "off")
	srv.Stdout, srv.Stderr = os.Stderr, os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	base := "http://" + addr
	waitFor(t, "server up with the database", 3*time.Minute, func() bool { return status(base+readyPath) == 200 })
	return base
}

// TestServeSurvivesDatabaseOutage stops the database under a running server:
// postal endpoints keep answering from the instance's in-memory replica,
// endpoints that need the database (a login) answer 503 in the envelope,
// and /readyz is not ready; once the database is back, everything recovers
// without a restart.
func TestServeSurvivesDatabaseOutage(t *testing.T) {
	c, base := outageServer(t, nil, "/api/v1/pincodes/800001", 3*time.Second)
	ctx := context.Background()
	login := base + "/api/v1/login"
	if got := postStatus(login); got != 401 {
		t.Fatalf("login of an unknown user with the database up = %d, want 401", got)
	}

	stopTimeout := 5 * time.Second
	if err := c.Stop(ctx, &stopTimeout); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "503 while the database is down", 2*time.Minute, func() bool { return postStatus(login) == 503 })
	body := postJSON(t, login)
	if body["success"] != false || body["code"] != "unavailable" {
		t.Errorf("login body during the outage = %v, want the envelope with code unavailable", body)
	}
	for _, path := range []string{"/api/v1/pincodes/800001", "/api/v1/pincodes/226002",
		"/api/v1/pincodes/nearby?latitude=25.6&longitude=85.2&limit=5"} {
		if got := status(base + path); got != 200 {
			t.Errorf("GET %s during the outage = %d, want 200 from the in-memory replica", path, got)
		}
	}
	if got := status(base + "/readyz"); got == 200 {
		t.Errorf("/readyz during the outage = %d, want not ready", got)
	}

	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "recovery once the database is back", 3*time.Minute, func() bool { return postStatus(login) == 401 })
	waitFor(t, "/readyz 200 once the database is back", 2*time.Minute, func() bool { return status(base+"/readyz") == 200 })
}

// TestServePostalReadsWithDatabasePaused pauses the database (docker
// pause: connections hang rather than fail) under a running server: PIN
// lookups never asked before and nearby queries still answer 200, with the
// review counts written before the pause. No postal read waits on the
// database: the server waits up to pausedDBTimeout for it, and each read
// must answer within a third of that (it takes milliseconds; the bound is
// that generous so a loaded machine does not fail the test).
func TestServePostalReadsWithDatabasePaused(t *testing.T) {
	const pausedDBTimeout = time.Minute
	patna := review.Office{Pincode: "800001", NameKey: "patna", OfficeType: "HO"}
	c, base := outageServer(t, func(db *postgres.DB) {
		withUsers(t, db, 2)
		store := postgres.NewReviewStore(db)
		for user := int64(1); user <= 2; user++ {
			if _, _, err := store.PutReview(context.Background(), review.Review{Office: patna, UserID: user, Rating: 3 + int(user),
				CreatedAt: time.Now(), UpdatedAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
		}
	}, "/api/v1/dataset", pausedDBTimeout)
	pauseContainer(t, c)

	client := http.Client{Timeout: pausedDBTimeout / 3}
	get := func(path string) map[string]any {
		t.Helper()
		resp, err := client.Get(base + path)
		if err != nil {
			t.Errorf("GET %s with the database paused: %v; want 200 within %v", path, err, client.Timeout)
			return nil
		}
		defer resp.Body.Close()
		var body map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != 200 {
			t.Errorf("GET %s with the database paused = %d (%v); want 200", path, resp.StatusCode, err)
		}
		return body
	}
	for _, pin := range []string{"800001", "800008", "226001", "226002", "400001", "400002", "700001", "824101"} {
		body := get("/api/v1/pincodes/" + pin)
		if pin != "800001" || body == nil {
			continue
		}
		data, _ := body["data"].(map[string]any)
		offices, _ := data["post_offices"].([]any)
		var reviews float64
		for _, o := range offices {
			if o, _ := o.(map[string]any); o["id"] == 1.0 { // Patna GPO, the first of its name

				reviews, _ = o["reviews_count"].(float64)
			}
		}
		if reviews != 2 {
			t.Errorf("800001 with the database paused carries %v reviews of office 1, want the 2 written before: %v", reviews, offices)
		}
	}
	for _, q := range []string{"latitude=25.6&longitude=85.2", "latitude=18.94&longitude=72.83&limit=3",
		"latitude=22.57&longitude=88.35&radius=50", "latitude=26.85&longitude=80.94&limit=10"} {
		get("/api/v1/pincodes/nearby?" + q)
	}
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

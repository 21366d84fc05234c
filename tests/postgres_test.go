package tests

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/testcontainers/testcontainers-go"
	tcpostgres "github.com/testcontainers/testcontainers-go/modules/postgres"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/tests/race"
)

// pgServer is the one PostGIS container shared by the package's tests.
var pgServer struct {
	once      sync.Once
	container *tcpostgres.PostgresContainer
	adminURL  string
	err       error
	dbs       int
	mu        sync.Mutex
}

// startPostGIS starts the shared container once; it is removed when the test
// binary exits (TestMain).
func startPostGIS(t testing.TB) string {
	t.Helper()
	image := postGIS.image(t)
	pgServer.once.Do(func() {
		c, err := startContainer(tcpostgres.Run, image, postgresReady(), postgresOptions()...)
		pgServer.container = c
		if err != nil {
			pgServer.err = fmt.Errorf("start %s: %w", image, err)
			return
		}
		pgServer.adminURL, pgServer.err = c.ConnectionString(context.Background(), "sslmode=disable")
	})
	if pgServer.err != nil {
		t.Fatal(pgServer.err)
	}
	return pgServer.adminURL
}

// newDatabase creates a fresh, migrated database for one test and returns
// its handle and URL.
func newDatabase(t testing.TB) (*postgres.DB, string) {
	t.Helper()
	db, url := newEmptyDatabase(t)
	if _, err := postgres.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return db, url
}

// newEmptyDatabase creates a fresh database without migrating it.
func newEmptyDatabase(t testing.TB) (*postgres.DB, string) {
	t.Helper()
	admin := startPostGIS(t)
	pgServer.mu.Lock()
	pgServer.dbs++
	name := fmt.Sprintf("t%d_%d", os.Getpid(), pgServer.dbs)
	pgServer.mu.Unlock()
	ctx := context.Background()
	adb, err := postgres.Open(ctx, postgres.Config{URL: admin})
	if err != nil {
		t.Fatal(err)
	}
	defer adb.Close()
	if _, err := adb.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	url := strings.Replace(admin, "/pinsight?", "/"+name+"?", 1)
	db, err := postgres.Open(ctx, postgres.Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db, url
}

// requireDockerEnv, set to 1 (as .ci/run does), turns the skip without a
// Docker engine into a failure: CI must run the container tests.
const requireDockerEnv = "PINSIGHT_REQUIRE_DOCKER"

// dockerHealth is the engine's health, asked once per test binary.
var dockerHealth = sync.OnceValue(func() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	provider, err := testcontainers.ProviderDefault.GetProvider()
	if err == nil {
		err = provider.Health(context.Background())
	}
	return err
})

// skipWithoutDocker skips when no Docker engine answers (as
// testcontainers.SkipIfProviderIsNotHealthy, for benchmarks too), or fails
// when requireDockerEnv is set. It also skips under -short without -race:
// that is the quick loop a contributor runs while working (about two
// minutes on 2 cores, docs/testing.md), while the README's second pass
// (-race -short) still runs every container test under the race detector.
func skipWithoutDocker(tb testing.TB) {
	tb.Helper()
	if testing.Short() && !race.Enabled {
		tb.Skip("container test: skipped in the -short quick loop (the README's command runs it twice, the second time under -race)")
	}
	if err := dockerHealth(); err != nil {
		if os.Getenv(requireDockerEnv) == "1" {
			tb.Fatalf("no Docker engine, and %s=1 requires one: %v", requireDockerEnv, err)
		}
		tb.Skipf("no Docker engine reachable, so the container tests skip (start Docker or set DOCKER_HOST to run them): %v", err)
	}
}

func TestMain(m *testing.M) {
	adaptToLocalDocker()
	code := m.Run()
	if pgServer.container != nil {
		_ = pgServer.container.Terminate(context.Background())
	}
	os.Exit(code)
}

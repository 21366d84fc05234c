package tests

import (
	"context"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tcpostgres "github.com/testcontainers/testcontainers-go/modules/postgres"
	"github.com/testcontainers/testcontainers-go/wait"
)

// containerWait bounds each wait of a container the suite starts (each
// strategy, and all of them together): minutes, not testcontainers' 60 s
// default, so a loaded machine never fails a test at its start (PostgreSQL
// took 44 s to be ready at a load average of 30 on 2 cores).
const containerWait = 5 * time.Minute

// containerStart bounds a container's whole start: creating it, starting it
// and its waits.
const containerStart = containerWait + 2*time.Minute

// runContainer starts image with run (testcontainers.Run or a module's Run)
// and opts, once all of ready hold (each with containerWait), removing it
// at the test's end. Every container of the suite starts through it.
func runContainer[C testcontainers.Container](tb testing.TB, run func(context.Context, string, ...testcontainers.ContainerCustomizer) (C, error),
	image string, ready []wait.Strategy, opts ...testcontainers.ContainerCustomizer) C {
	tb.Helper()
	c, err := startContainer(run, image, ready, opts...)
	testcontainers.CleanupContainer(tb, c)
	if err != nil {
		tb.Fatalf("start %s: %v", image, err)
	}
	return c
}

// startContainer is runContainer without the test: the container is the
// caller's to remove, even when err is not nil (it may then be started).
func startContainer[C testcontainers.Container](run func(context.Context, string, ...testcontainers.ContainerCustomizer) (C, error),
	image string, ready []wait.Strategy, opts ...testcontainers.ContainerCustomizer) (C, error) {
	ctx, cancel := context.WithTimeout(context.Background(), containerStart)
	defer cancel()
	opts = append(opts, testcontainers.WithWaitStrategyAndDeadline(containerWait, ready...))
	return run(ctx, image, opts...)
}

// postgresReady is ready for PostgreSQL: its log says twice (after the
// init scripts' server, the real one) that it accepts connections, and
// its port listens.
func postgresReady() []wait.Strategy {
	return []wait.Strategy{
		wait.ForLog("database system is ready to accept connections").WithOccurrence(2).WithStartupTimeout(containerWait),
		wait.ForListeningPort("5432/tcp").WithStartupTimeout(containerWait),
	}
}

// postgresOptions are the options of every PostGIS container of the
// suite: its database, user and password, all "pinsight".
func postgresOptions(opts ...testcontainers.ContainerCustomizer) []testcontainers.ContainerCustomizer {
	return append([]testcontainers.ContainerCustomizer{
		tcpostgres.WithDatabase("pinsight"), tcpostgres.WithUsername("pinsight"), tcpostgres.WithPassword("pinsight"),
	}, opts...)
}

// runPostGIS starts a PostGIS container of the test's own (removed at its
// end) with opts.
func runPostGIS(tb testing.TB, opts ...testcontainers.ContainerCustomizer) *tcpostgres.PostgresContainer {
	tb.Helper()
	return runContainer(tb, tcpostgres.Run, postGIS.image(tb), postgresReady(), postgresOptions(opts...)...)
}

// redisReady is ready for Redis: its log says it accepts connections, and
// its port listens.
func redisReady() []wait.Strategy {
	return []wait.Strategy{
		wait.ForLog("Ready to accept connections").WithStartupTimeout(containerWait),
		wait.ForListeningPort("6379/tcp").WithStartupTimeout(containerWait),
	}
}

package postgresfx_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/adapters/postgres/postgresfx"
	"github.com/pinsight/pinsight/ports"
)

// TestConnectsOnStart: building the graph does not connect; starting it
// against a database that is not there fails with ports.ErrUnavailable,
// within the start's context.
func TestConnectsOnStart(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // a port nothing listens on
	cfg := postgres.Config{URL: "postgres://u:p@" + addr + "/db?sslmode=disable", ConnectTimeout: time.Second}
	app := fx.New(fx.NopLogger, fx.Supply(cfg), postgresfx.Module, fx.Invoke(func(ports.AccountStore) {}))
	if err := app.Err(); err != nil {
		t.Fatalf("building the graph: %v (nothing should connect yet)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := app.Start(ctx); !errors.Is(err, ports.ErrUnavailable) {
		t.Errorf("Start without a database = %v, want ports.ErrUnavailable", err)
	}
	bad := fx.New(fx.NopLogger, fx.Supply(postgres.Config{URL: "mysql://x"}), postgresfx.Module, fx.Invoke(func(ports.AccountStore) {}))
	if bad.Err() == nil {
		t.Error("a URL that is not postgres:// built a graph")
	}
}

package main

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// TestRedisDownServesDegraded: with --redis-url naming a port nobody
// listens on, the server starts, serves and keeps the quota with its
// in-process limiter (the third request of a 2/min quota is 429), and
// /readyz answers 200 with the rate_limits component degraded.
func TestRedisDownServesDegraded(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cfg := serveConfig{
		HTTP:     httpapi.Config{Addr: "127.0.0.1:0", RateLimits: middleware.RateLimits{Default: ratelimit.Limit{Requests: 2, Window: 60e9}}},
		Database: databaseConfig{URL: "memory:"},
		RedisURL: "redis://" + addr + "/0",
	}
	var srv *httpapi.Server
	a := fxtest.New(t, mustOptions(t, cfg), fx.Populate(&srv))
	a.RequireStart()
	defer a.RequireStop()
	base := "http://" + srv.Addr()
	for i, want := range []int{200, 200, 429} {
		res, err := http.Get(base + "/api/v1/pincodes/110001")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("request %d = %d, want %d", i+1, res.StatusCode, want)
		}
	}
	res, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body struct {
		Data struct {
			Components []struct{ Name, State string }
		}
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("/readyz = %d (%v), want 200", res.StatusCode, err)
	}
	var states []string
	for _, c := range body.Data.Components {
		states = append(states, c.Name+"="+c.State)
	}
	if got := strings.Join(states, " "); !strings.Contains(got, "rate_limits=degraded") {
		t.Errorf("/readyz components %s, want rate_limits=degraded", got)
	}
}

func TestBadRedisURLFailsTheStart(t *testing.T) {
	cfg := serveConfig{HTTP: httpapi.Config{Addr: "127.0.0.1:0"}, Database: databaseConfig{URL: "memory:"}, RedisURL: "http://localhost:6379"}
	if err := fx.New(mustOptions(t, cfg), fx.NopLogger).Err(); err == nil || !strings.Contains(err.Error(), "redis") {
		t.Errorf("a bad --redis-url gave %v, want a redis error", err)
	}
}

package health_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/app/health"
)

// errDriver is what a database driver says: user, database and host.
var errDriver = errors.New(`failed to connect to host=db.internal user=pinsight database=prod: dial tcp 10.0.3.7:5432: connection refused`)

// ready runs h.Ready, failing the test if it has not answered within
// guard (the checks' own timeouts are far below it).
func ready(t *testing.T, h *health.Health, guard time.Duration) (bool, []health.ComponentState) {
	t.Helper()
	type result struct {
		ok     bool
		states []health.ComponentState
	}
	done := make(chan result, 1)
	go func() {
		ok, states := h.Ready(context.Background())
		done <- result{ok, states}
	}()
	select {
	case r := <-done:
		return r.ok, r.states
	case <-time.After(guard):
		t.Fatalf("Ready has not answered within %v", guard)
		return false, nil
	}
}

// TestReadyStalledCheck: a check that never answers, even ignoring its
// context (a paused database), is unavailable once its timeout passes;
// Ready does not hang on it.
func TestReadyStalledCheck(t *testing.T) {
	stall := make(chan struct{})
	t.Cleanup(func() { close(stall) })
	h := health.New([]health.Component{
		{Name: "database", Timeout: 50 * time.Millisecond, Check: func(context.Context) error { <-stall; return nil }},
		{Name: "postal_data", Check: func(context.Context) error { return nil }},
	})
	ok, states := ready(t, h, 10*time.Second)
	if ok || states[0].State != "unavailable" || states[0].Ready || states[1].State != "ready" {
		t.Errorf("Ready with a stalled database = %v %+v, want not ready, database unavailable", ok, states)
	}
	if !strings.Contains(states[0].Detail, "no answer within 50ms") {
		t.Errorf("detail %q does not say the check timed out", states[0].Detail)
	}
}

// TestReadyChecksConcurrently: every check runs at once; each of these
// waits for all the others to have started, so run one after another they
// would all time out.
func TestReadyChecksConcurrently(t *testing.T) {
	var started sync.WaitGroup
	const n = 4
	started.Add(n)
	var cs []health.Component
	for i := range n {
		cs = append(cs, health.Component{Name: fmt.Sprint("c", i), Timeout: 5 * time.Second, Check: func(ctx context.Context) error {
			started.Done()
			waited := make(chan struct{})
			go func() { started.Wait(); close(waited) }()
			select {
			case <-waited:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}})
	}
	if ok, states := ready(t, health.New(cs), 30*time.Second); !ok {
		t.Errorf("checks that need each other = %+v, want all ready (run concurrently)", states)
	}
}

// TestReadyHidesCauses: raw errors (driver text naming user, database and
// host) never reach a state but go to the log, once while unchanged;
// NotConfigured and Degraded give public details, and neither makes the
// server unready.
func TestReadyHidesCauses(t *testing.T) {
	var logs bytes.Buffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	h := health.New([]health.Component{
		{Name: "a_database", Check: func(context.Context) error { return fmt.Errorf("ping: %w", errDriver) }},
		{Name: "b_cache", Check: func(context.Context) error {
			return fmt.Errorf("%w: redis at 10.0.3.9:6379 refused", health.ErrDegraded)
		}},
		{Name: "c_postal", Check: func(context.Context) error { return health.Degraded("ids are derived from names") }},
		{Name: "d_data", Check: func(context.Context) error { return health.NotConfigured("no postal data files given") }},
		{Name: "e_panics", Check: func(context.Context) error { panic("user=pinsight") }},
	})
	ready(t, h, 10*time.Second)
	ok, states := ready(t, h, 10*time.Second) // polled again: nothing new to log
	if n := strings.Count(logs.String(), "10.0.3.7:5432"); n != 1 {
		t.Errorf("the database's cause was logged %d times over two polls, want once:\n%s", n, logs.String())
	}
	want := []struct{ state, detail string }{
		{"unavailable", ""}, {"degraded", ""}, {"degraded", "ids are derived from names"},
		{"not_configured", "no postal data files given"}, {"unavailable", ""},
	}
	if ok || len(states) != len(want) {
		t.Fatalf("Ready = %v %+v", ok, states)
	}
	for i, s := range states {
		if s.State != want[i].state || want[i].detail != "" && s.Detail != want[i].detail || s.Detail == "" {
			t.Errorf("%s = %+v, want state %s, detail %q", s.Name, s, want[i].state, want[i].detail)
		}
		for _, secret := range []string{"pinsight", "prod", "10.0.3", "db.internal", "refused"} {
			if strings.Contains(s.Detail, secret) {
				t.Errorf("%s detail %q leaks %q", s.Name, s.Detail, secret)
			}
		}
	}
	ok, _ = ready(t, health.New([]health.Component{
		{Name: "cache", Check: func(context.Context) error { return fmt.Errorf("%w: down", health.ErrDegraded) }},
		{Name: "data", Check: func(context.Context) error { return health.NotConfigured("none") }},
	}), 10*time.Second)
	if !ok {
		t.Error("degraded and not_configured components made the server unready")
	}
}

// TestReadyHoldsOneTimeout: a component shown ready whose check runs out of
// time once stays shown ready (a blip under load), is shown unavailable
// the second time in a row, and ready again at its first answer; a check
// that answers with a failure shows at once.
func TestReadyHoldsOneTimeout(t *testing.T) {
	var mu sync.Mutex
	mode := "ok"
	h := health.New([]health.Component{{Name: "database", Timeout: 20 * time.Millisecond, Check: func(ctx context.Context) error {
		mu.Lock()
		m := mode
		mu.Unlock()
		switch m {
		case "slow":
			<-ctx.Done()
			return ctx.Err()
		case "down":
			return errDriver
		}
		return nil
	}}})
	set := func(m string) { mu.Lock(); mode = m; mu.Unlock() }
	for i, step := range []struct {
		mode, want string
	}{
		{"ok", "ready"}, {"slow", "ready"}, {"slow", "unavailable"}, {"slow", "unavailable"},
		{"ok", "ready"}, {"slow", "ready"}, {"ok", "ready"}, {"slow", "ready"}, {"down", "unavailable"},
		{"ok", "ready"}, {"down", "unavailable"},
	} {
		set(step.mode)
		ok, states := ready(t, h, 10*time.Second)
		if states[0].State != step.want || ok != (step.want == "ready") {
			t.Errorf("check %d (%s) = %v %s, want %s", i+1, step.mode, ok, states[0].State, step.want)
		}
	}
}

// TestReadyOptionalUnavailable: an optional component that is unavailable
// (no browser for rendering) is shown so, and the server stays ready; a
// required one that fails still makes it unready.
func TestReadyOptionalUnavailable(t *testing.T) {
	renderer := health.Component{Name: "renderer", Optional: true, Check: func(context.Context) error { return errors.New("no chromium") }}
	db := health.Component{Name: "database", Check: func(context.Context) error { return nil }}
	ok, states := ready(t, health.New([]health.Component{renderer, db}), time.Minute)
	if !ok {
		t.Errorf("ready = false with only an optional component unavailable: %+v", states)
	}
	if s := states[1]; s.Name != "renderer" || s.State != "unavailable" || s.Ready {
		t.Errorf("renderer state = %+v, want unavailable", s)
	}
	db.Check = func(context.Context) error { return errDriver }
	if ok, _ := ready(t, health.New([]health.Component{renderer, db}), time.Minute); ok {
		t.Error("ready = true with the database unavailable")
	}
}

// TestReadyForReads: with the database stalled, the reads readiness checks
// only the components marked Reads and answers ready at once, while Ready
// is not ready; with the postal data unavailable, neither is ready.
func TestReadyForReads(t *testing.T) {
	stall := make(chan struct{})
	t.Cleanup(func() { close(stall) })
	var dbChecks int
	var mu sync.Mutex
	db := health.Component{Name: "database", Timeout: 50 * time.Millisecond, Check: func(context.Context) error {
		mu.Lock()
		dbChecks++
		mu.Unlock()
		<-stall
		return nil
	}}
	postal := health.Component{Name: "postal_data", Reads: true, Check: func(context.Context) error { return nil }}
	h := health.New([]health.Component{db, postal})
	ok, states := h.ReadyForReads(context.Background())
	if !ok || len(states) != 1 || states[0].Name != "postal_data" || states[0].State != "ready" {
		t.Errorf("ReadyForReads with the database stalled = %v %+v, want ready with postal_data alone", ok, states)
	}
	mu.Lock()
	if dbChecks != 0 {
		t.Errorf("ReadyForReads ran the database check %d times, want 0", dbChecks)
	}
	mu.Unlock()
	for range 2 { // the first miss is held (heldMisses)
		ok, _ = ready(t, h, 10*time.Second)
	}
	if ok {
		t.Error("Ready with the database stalled twice = true, want not ready")
	}
	postal.Check = func(context.Context) error { return errDriver }
	h = health.New([]health.Component{db, postal})
	if ok, states := h.ReadyForReads(context.Background()); ok || states[0].State != "unavailable" {
		t.Errorf("ReadyForReads with the postal data unavailable = %v %+v, want not ready", ok, states)
	}
}

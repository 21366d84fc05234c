// Package health reports whether a server can serve what it was configured
// with: each component it depends on has a readiness check, run at once and
// within its timeout, whose failures are logged and never shown.
package health

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"
)

// Component checks may wrap these to report a state that does not stop the
// server from serving what it was configured with. Their text is not shown
// to clients; build them with NotConfigured and Degraded to give a detail
// that is.
var (
	// ErrNotConfigured: the component was not asked for (e.g. no data files).
	ErrNotConfigured = errors.New("not configured")
	// ErrDegraded: the component serves, with a limitation worth knowing.
	ErrDegraded = errors.New("degraded")
)

// NotConfigured is a check result for a component that was not asked for,
// with a detail anyone may read (no addresses, names or driver text).
func NotConfigured(detail string) error { return &publicState{kind: ErrNotConfigured, detail: detail} }

// Degraded is a check result for a component that serves with a
// limitation, with a detail anyone may read (no addresses, names or driver
// text).
func Degraded(detail string) error { return &publicState{kind: ErrDegraded, detail: detail} }

// publicState is a check result whose detail is safe to show.
type publicState struct {
	kind   error
	detail string
}

func (e *publicState) Error() string { return e.kind.Error() + ": " + e.detail }
func (e *publicState) Unwrap() error { return e.kind }

// DefaultCheckTimeout bounds a readiness check whose Component sets no
// Timeout.
const DefaultCheckTimeout = 2 * time.Second

// Component is one thing the server depends on, with a readiness check.
// Check returns nil when the component can serve; its error explains why
// not, to the server log only (see NotConfigured and Degraded). Describe,
// when set, says what a ready component serves (e.g. which dataset); it
// becomes the state's detail, so it must hold nothing secret.
type Component struct {
	Name     string
	Check    func(context.Context) error
	Describe func(context.Context) string
	// Timeout bounds Check and Describe (default DefaultCheckTimeout); a
	// check that has not answered by then, whether or not it honours its
	// context, counts as unavailable.
	Timeout time.Duration
	// Optional marks a component the server serves without (the renderer:
	// only rendered analyses need it): shown unavailable when it is, it
	// does not make the server unready.
	Optional bool
	// Reads marks a component the public reads need (the postal
	// directory): ReadyForReads checks these alone, so an instance that
	// still serves them from memory stays in a load balancer's rotation
	// while its database is away.
	Reads bool
}

// ComponentState is the outcome of one readiness check.
type ComponentState struct {
	Name   string `json:"name"`
	Ready  bool   `json:"ready"`
	State  string `json:"state" enum:"ready,degraded,not_configured,unavailable"`
	Detail string `json:"detail,omitempty" doc:"A fixed explanation; causes are in the server log."`
}

// Fixed details of states whose cause is logged, not shown.
const (
	detailUnavailable = "check failed: see the server log"
	detailDegraded    = "serving with a limitation: see the server log"
	detailUnasked     = "not configured"
)

// Health reports whether the server can serve what it was configured with.
type Health struct {
	components []Component

	mu     sync.Mutex
	logged map[string]string // component name -> the last cause logged
	shown  map[string]string // component name -> the state last reported
	misses map[string]int    // component name -> checks in a row out of time since it was shown ready
}

// heldMisses is how many checks in a row that run out of time a component
// shown ready may have before it is shown unavailable: one check without
// an answer in time (a burst of CPU load) is a blip, logged, not a fault
// that takes the instance out of service; two in a row are. A check that
// answers with a failure shows at once.
const heldMisses = 1

// New returns a Health over the given components, reported in name order.
func New(components []Component) *Health {
	cs := append([]Component(nil), components...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	return &Health{components: cs, logged: map[string]string{}, shown: map[string]string{}, misses: map[string]int{}}
}

// Ready runs every check at once, each within its timeout, and reports
// whether the server can serve what it was configured with (no component
// unavailable but Optional ones; not_configured and degraded ones do not
// count), with each component's state. A component shown ready whose check
// runs out of time is shown unavailable only the second time in a row
// (heldMisses). It returns within the longest timeout however the checks
// behave. States carry fixed details; the causes of failures are logged
// (when they change, so a polled /readyz does not flood the log).
func (h *Health) Ready(ctx context.Context) (bool, []ComponentState) {
	return h.ready(ctx, h.components)
}

// ReadyForReads is Ready over the components marked Reads alone: whether
// the server can answer the public reads (the postal directory), whatever
// the state of the database and the other components writes need. A load
// balancer that checks it keeps an instance serving reads from memory in
// rotation through a database outage; the instance answers writes 503
// with Retry-After meanwhile.
func (h *Health) ReadyForReads(ctx context.Context) (bool, []ComponentState) {
	var reads []Component
	for _, c := range h.components {
		if c.Reads {
			reads = append(reads, c)
		}
	}
	return h.ready(ctx, reads)
}

// ready runs the checks of components at once (see Ready).
func (h *Health) ready(ctx context.Context, components []Component) (bool, []ComponentState) {
	states := make([]ComponentState, len(components))
	var wg sync.WaitGroup
	for i, c := range components {
		wg.Go(func() {
			detail, err := check(ctx, c)
			states[i] = h.state(ctx, c, err)
			if err == nil {
				states[i].Detail = detail
			}
		})
	}
	wg.Wait()
	all := true
	for i, s := range states {
		all = all && (s.State != "unavailable" || components[i].Optional)
	}
	return all, states
}

// check runs c's check within its timeout.
func check(ctx context.Context, c Component) (detail string, err error) {
	timeout := timeoutOf(c)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		detail string
		err    error
	}
	done := make(chan result, 1) // buffered: a check that ignores ctx finishes alone
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- result{err: fmt.Errorf("check panicked: %v", v)}
			}
		}()
		var r result
		if r.err = c.Check(ctx); r.err == nil && c.Describe != nil {
			r.detail = c.Describe(ctx)
		}
		done <- r
	}()
	select {
	case r := <-done:
		return r.detail, r.err
	case <-ctx.Done():
		return "", fmt.Errorf("no answer within %v: %w", timeout, ctx.Err())
	}
}

// state turns a check result into the component's public state, logging
// the cause of anything but ready.
func (h *Health) state(ctx context.Context, c Component, err error) ComponentState {
	s := ComponentState{Name: c.Name, Ready: true, State: "ready"}
	var public *publicState
	switch {
	case err == nil:
	case errors.As(err, &public) && errors.Is(err, ErrNotConfigured):
		s.Ready, s.State, s.Detail = false, "not_configured", public.detail
	case errors.As(err, &public) && errors.Is(err, ErrDegraded):
		s.State, s.Detail = "degraded", public.detail
	case errors.Is(err, ErrNotConfigured):
		s.Ready, s.State, s.Detail = false, "not_configured", detailUnasked
	case errors.Is(err, ErrDegraded):
		s.State, s.Detail = "degraded", detailDegraded
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		s.Ready, s.State, s.Detail = false, "unavailable", "no answer within "+timeoutOf(c).String()
	default:
		s.Ready, s.State, s.Detail = false, "unavailable", detailUnavailable
	}
	h.logChange(ctx, c.Name, s.State, err)
	return h.hold(s, errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil)
}

// hold applies the hysteresis of heldMisses: a component shown ready stays
// shown ready through its first heldMisses checks in a row that ran out of
// time (timedOut); any other change shows at once.
func (h *Health) hold(s ComponentState, timedOut bool) ComponentState {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case !timedOut:
		h.misses[s.Name] = 0
	case h.shown[s.Name] == "ready" && h.misses[s.Name] < heldMisses:
		h.misses[s.Name]++
		return ComponentState{Name: s.Name, Ready: true, State: "ready"}
	}
	h.shown[s.Name] = s.State
	return s
}

// timeoutOf is the time c's check is given.
func timeoutOf(c Component) time.Duration {
	if c.Timeout <= 0 {
		return DefaultCheckTimeout
	}
	return c.Timeout
}

// logChange logs a component's cause when it differs from the last one
// logged for it.
func (h *Health) logChange(ctx context.Context, name, state string, err error) {
	cause := ""
	if err != nil {
		cause = err.Error()
	}
	h.mu.Lock()
	last := h.logged[name]
	h.logged[name] = cause
	h.mu.Unlock()
	switch {
	case cause == last: // unchanged (or ready from the start)
	case err == nil:
		slog.InfoContext(ctx, "component ready", "component", name)
	case state == "unavailable":
		slog.WarnContext(ctx, "component not ready", "component", name, "state", state, "err", cause)
	default:
		slog.InfoContext(ctx, "component state", "component", name, "state", state, "err", cause)
	}
}

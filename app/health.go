// Package app holds Pinsight's use cases, written against the ports, and the
// fx module that provides them. It knows no transport and no adapter.
package app

import (
	"context"
	"errors"
	"sort"
)

// Component checks may wrap these to report a state that does not stop the
// server from serving what it was configured with.
var (
	// ErrNotConfigured: the component was not asked for (e.g. no data files).
	ErrNotConfigured = errors.New("not configured")
	// ErrDegraded: the component serves, with a limitation worth knowing.
	ErrDegraded = errors.New("degraded")
)

// Component is one thing the server depends on, with a readiness check.
// Check returns nil when the component can serve; its error explains why not.
// Describe, when set, says what a ready component serves (e.g. which
// dataset); it becomes the state's detail.
type Component struct {
	Name     string
	Check    func(context.Context) error
	Describe func(context.Context) string
}

// ComponentState is the outcome of one readiness check.
type ComponentState struct {
	Name   string `json:"name"`
	Ready  bool   `json:"ready"`
	State  string `json:"state" enum:"ready,degraded,not_configured,unavailable"`
	Detail string `json:"detail,omitempty"`
}

// Health reports whether the server can serve what it was configured with.
type Health struct {
	components []Component
}

// NewHealth returns a Health over the given components, checked in name order.
func NewHealth(components []Component) *Health {
	cs := append([]Component(nil), components...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	return &Health{components: cs}
}

// Ready runs every check and reports whether the server can serve what it
// was configured with (no check failed, ErrNotConfigured and ErrDegraded
// aside), with each component's state.
func (h *Health) Ready(ctx context.Context) (bool, []ComponentState) {
	all := true
	states := make([]ComponentState, 0, len(h.components))
	for _, c := range h.components {
		s := ComponentState{Name: c.Name, Ready: true, State: "ready"}
		err := c.Check(ctx)
		switch {
		case err == nil:
			if c.Describe != nil {
				s.Detail = c.Describe(ctx)
			}
		case errors.Is(err, ErrNotConfigured):
			s.Ready, s.State, s.Detail = false, "not_configured", err.Error()
		case errors.Is(err, ErrDegraded):
			s.State, s.Detail = "degraded", err.Error()
		default:
			s.Ready, s.State, s.Detail = false, "unavailable", err.Error()
			all = false
		}
		states = append(states, s)
	}
	return all, states
}

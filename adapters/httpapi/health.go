package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/health"
)

// healthData is the liveness answer.
type healthData struct {
	Status string `json:"status" example:"ok"`
}

// readyData lists the state of every component, with the build serving.
type readyData struct {
	Ready bool `json:"ready"`
	// Version is the server's build, not the API's version (OpenAPI's
	// info.version).
	Version    string                  `json:"version,omitempty" doc:"The server build's version (tag or pseudo-version, commit, date, whether the tree was modified); absent when the server was not told it. Not the API's version, which is the OpenAPI document's info.version." example:"v1.4.0 (commit 0123456789ab, 2026-01-01T12:00:00Z)"`
	Components []health.ComponentState `json:"components"`
}

func registerHealth(api huma.API, h *health.Health, version string) {
	huma.Register(api, huma.Operation{
		OperationID: "healthz", Method: http.MethodGet, Path: "/healthz",
		Summary: "Liveness: the process is up", Tags: []string{"Operations"},
		Description: "Always 200 with status ok while the process serves HTTP; no component is checked (see /readyz for that).",
	}, func(context.Context, *struct{}) (*reply[healthData], error) {
		return ok(healthData{Status: "ok"}), nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "readyz", Method: http.MethodGet, Path: "/readyz",
		Summary: "Readiness: every configured component can serve",
		Description: "Every component is checked at once, each within a timeout (2 s by default). 200 with each " +
			"component's state (ready, degraded, not_configured) when none is unavailable; otherwise 503 with " +
			"Retry-After in the error envelope, errors keyed by the unavailable components. Details are fixed " +
			"texts; the causes (driver errors, addresses) go to the server log only.",
		Tags:      []string{"Operations"},
		Responses: map[string]*huma.Response{"503": {Description: "A component is unavailable or did not answer in time."}},
	}, readiness(h.Ready, version))
	huma.Register(api, huma.Operation{
		OperationID: "readyzReads", Method: http.MethodGet, Path: "/readyz/reads",
		Summary: "Readiness for the public reads: the postal directory is served",
		Description: "What a load balancer checks (deploy/ does): only the components the public reads need " +
			"(postal_data) are checked, so an instance whose database is paused, restarting or unreachable stays " +
			"in rotation and keeps answering the postal and DIGIPIN reads from its in-memory replica, while it " +
			"answers what needs the database (accounts, reports, crawls, reviews) 503 with Retry-After itself. " +
			"200 with those components' states when none is unavailable; otherwise 503 with Retry-After in the " +
			"error envelope (the dataset is not loaded yet). /readyz checks every component.",
		Tags:      []string{"Operations"},
		Responses: map[string]*huma.Response{"503": {Description: "The postal directory is not served (not loaded yet)."}},
	}, readiness(h.ReadyForReads, version))
}

// readiness answers a readiness check: 200 with every state when ready,
// else 503 with errors keyed by the unavailable components.
func readiness(check func(context.Context) (bool, []health.ComponentState), version string) func(context.Context, *struct{}) (*reply[readyData], error) {
	return func(ctx context.Context, _ *struct{}) (*reply[readyData], error) {
		ready, states := check(ctx)
		if ready {
			return ok(readyData{Ready: true, Version: version, Components: states}), nil
		}
		var details []error
		for _, s := range states {
			if s.State == "unavailable" {
				details = append(details, fieldError(s.Name, s.Detail))
			}
		}
		return nil, newError(http.StatusServiceUnavailable, "not ready", details...)
	}
}

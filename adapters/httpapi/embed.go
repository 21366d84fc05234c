package httpapi

import (
	"errors"
	"net/http"
	"strings"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/app/health"
)

// HandlerOptions configures Handler.
type HandlerOptions struct {
	// BasePath is the path the host serves the API under, e.g. "/geo": the
	// host routes BasePath+"/" to the handler, which answers
	// BasePath/api/v1/..., BasePath/openapi.json (whose servers list
	// BasePath), BasePath/docs, BasePath/healthz and the report pages at
	// BasePath/r/{token}. "" mounts it at the root.
	BasePath string
	// Routes are the use cases to serve (Health defaults to an always-ready
	// one).
	Routes Routes
	// Edge configures the middleware around the API: access log, metrics,
	// quotas, CORS and request limits. Its Authenticate defaults to the
	// routes' Accounts.Authenticate, so quotas charge verified keys' users.
	Edge middleware.Options
}

// Handler returns the whole API, middleware included, as one handler a
// host program mounts on its own mux under o.BasePath; it opens no
// listener (the host's server serves it):
//
//	h, err := httpapi.Handler(httpapi.HandlerOptions{BasePath: "/geo", Routes: routes})
//	...
//	mux.Handle("/geo/", h)
//
// A BasePath must start with "/" and may not end with one (nor hold "//",
// "." or ".." segments, a query or spaces). Routes lacking a use case an
// operation needs is an error naming the operations (see Routes).
func Handler(o HandlerOptions) (http.Handler, error) {
	base, err := cleanBasePath(o.BasePath)
	if err != nil {
		return nil, err
	}
	if o.Routes.Health == nil {
		o.Routes.Health = health.New(nil)
	}
	if o.Edge.Authenticate == nil && o.Routes.Accounts != nil {
		o.Edge.Authenticate = o.Routes.Accounts.Authenticate
	}
	mux := http.NewServeMux()
	if err := Register(newAPI(mux, base), o.Routes); err != nil {
		return nil, err
	}
	h := middleware.NewHandler(mux, o.Edge)
	if base == "" {
		return h, nil
	}
	return http.StripPrefix(base, h), nil
}

// cleanBasePath checks a base path: "" or "/a/b" ("/" counts as "").
func cleanBasePath(p string) (string, error) {
	if p == "" || p == "/" {
		return "", nil
	}
	if !strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") {
		return "", errors.New(`httpapi: base path ` + p + ` must start with "/" and not end with one`)
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "" || seg == "." || seg == ".." || strings.ContainsAny(seg, "?#%{} \t") {
			return "", errors.New("httpapi: base path " + p + " has an empty, dot or unsafe segment")
		}
	}
	return p, nil
}

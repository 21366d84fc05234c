package mcp

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// originAllowed reports whether r may be served by its Origin: none (a
// client that is not a browser), the server's own (its scheme's host is
// the request's Host), or one of allowed ("*": any). The MCP
// specification asks servers to check it, against DNS rebinding and pages
// of other sites driving a user's local server.
func originAllowed(r *http.Request, allowed []string) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || slices.Contains(allowed, "*") || slices.Contains(allowed, origin) {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}

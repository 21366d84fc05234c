package middleware

import (
	"net/http"
	"slices"
	"strings"
)

// corsAllowed lets browsers call the API: public postal and DIGIPIN routes
// from any origin, the site-analysis API only from the configured origins.
func corsAllowed(next http.Handler, apiOrigins []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Add("Vary", "Origin")
		switch {
		case isPublic(r.URL.Path):
			h.Set("Access-Control-Allow-Origin", "*")
		case slices.Contains(apiOrigins, origin) || slices.Contains(apiOrigins, "*"):
			h.Set("Access-Control-Allow-Origin", origin)
		default:
			next.ServeHTTP(w, r)
			return
		}
		h.Set("Access-Control-Expose-Headers", "ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, DELETE, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match, X-Request-Id")
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// publicPrefixes are the unauthenticated data routes.
var publicPrefixes = []string{APIPrefix + "/pincodes", APIPrefix + "/villages", APIPrefix + "/states", APIPrefix + "/districts", APIPrefix + "/digipin", APIPrefix + "/dataset"}

func isPublic(path string) bool {
	for _, p := range publicPrefixes {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

package middleware

import (
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// RateLimits configures request quotas.
type RateLimits struct {
	// Default applies to every route but the operations endpoints
	// (/healthz, /readyz, /metrics, the OpenAPI documents and /docs with
	// its assets): per user for requests whose Bearer key the edge
	// verified (every key of a user shares the quota, so minting or
	// rotating keys does not reset it), per client IP for the others,
	// made-up or revoked keys included.
	Default ratelimit.Limit
	// Auth is the stricter quota of POST /register, /login and the report
	// page's owner sign-in (POST /r/{token}/signin), per IPv4 address and
	// per IPv6 /64: one bucket for the three.
	Auth ratelimit.Limit
	// TrustedProxies may set X-Forwarded-For.
	TrustedProxies []netip.Prefix
}

// DefaultRateLimits are the documented defaults.
var DefaultRateLimits = RateLimits{
	Default: ratelimit.Limit{Requests: 600, Window: time.Minute},
	Auth:    ratelimit.Limit{Requests: 10, Window: time.Minute},
}

// rateLimited wraps next with the quotas of cfg, setting RateLimit-* headers
// on every limited response and answering 429 with Retry-After beyond them.
// It runs after authenticated, whose verdict decides who is charged. POSTs
// at meteredPaths may charge more (Charge).
// Each decision is counted in m by quota and outcome.
func rateLimited(next http.Handler, limiter ports.RateLimiter, cfg RateLimits, meteredPaths []string, log *slog.Logger, m *Metrics) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if limiter == nil {
			next.ServeHTTP(w, r)
			return
		}
		kind := quotaKind(r)
		limit, key := quotaFor(r, kind, cfg)
		if !limit.Enabled() {
			next.ServeHTTP(w, r)
			return
		}
		quota := "default"
		if kind == authQuota {
			quota = "auth"
		}
		d, err := limiter.Take(r.Context(), key, limit)
		if err != nil { // fail open: a broken limiter must not take the API down
			log.WarnContext(r.Context(), "rate limiter failed", "err", err)
			m.rateDecision(quota, "error")
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("RateLimit-Limit", strconv.Itoa(d.Limit))
		h.Set("RateLimit-Remaining", strconv.Itoa(d.Remaining))
		h.Set("RateLimit-Reset", seconds(d.Reset))
		if !d.Allowed {
			m.rateDecision(quota, "limited")
			h.Set("Retry-After", seconds(d.RetryAfter))
			WriteError(w, http.StatusTooManyRequests, "rate limit exceeded: retry after "+seconds(d.RetryAfter)+" s")
			return
		}
		m.rateDecision(quota, "allowed")
		if metered(r, meteredPaths) {
			r = withCharger(r, limiter, key, limit, log, m, quota)
		}
		next.ServeHTTP(w, r)
	})
}

// The quotas a request may count against.
const (
	noQuota      = iota // operations endpoints
	authQuota           // POST /register, /login and the owner sign-in
	defaultQuota        // everything else
)

// quotaKind classifies a request by the quota it counts against.
func quotaKind(r *http.Request) int {
	p := r.URL.Path
	switch {
	case operational(p):
		return noQuota
	case r.Method == http.MethodPost && (p == APIPrefix+"/login" || p == APIPrefix+"/register" || isSignIn(p)):
		return authQuota
	}
	return defaultQuota
}

// SharePrefix starts the path of every report page, /r/{token}.
const SharePrefix = "/r/"

// SignInSuffix ends the path of a report page's owner sign-in form,
// POST /r/{token}/signin.
const SignInSuffix = "/signin"

// isSignIn reports whether path is a report page's owner sign-in.
func isSignIn(path string) bool {
	return strings.HasPrefix(path, SharePrefix) && strings.HasSuffix(path, SignInSuffix)
}

// operational lists the operations endpoints, which are never rate limited.
func operational(path string) bool {
	switch path {
	case "/healthz", "/readyz", "/readyz/reads", "/metrics", "/docs":
		return true
	}
	return strings.HasPrefix(path, "/openapi") || strings.HasPrefix(path, "/schemas/") || strings.HasPrefix(path, "/docs/")
}

// clientNetwork is the key of the auth quota for a client address: an
// IPv4 address as it is, an IPv6 address by its /64 (what one subscriber
// is given: rotating addresses inside it does not buy more attempts).
func clientNetwork(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil || !a.Is6() || a.Is4In6() {
		return ip
	}
	p, err := a.Prefix(64)
	if err != nil {
		return ip
	}
	return p.String()
}

// quotaFor picks the limit and the client key of a request of kind (see
// quotaKind): the verified caller's user, else the client IP.
func quotaFor(r *http.Request, kind int, cfg RateLimits) (ratelimit.Limit, string) {
	switch kind {
	case noQuota:
		return ratelimit.Limit{}, ""
	case authQuota:
		if !cfg.Auth.Enabled() {
			return cfg.Auth, "" // off: no key to compute
		}
		return cfg.Auth, "auth:" + clientNetwork(ClientIP(r, cfg.TrustedProxies))
	}
	if !cfg.Default.Enabled() {
		return cfg.Default, ""
	}
	if v, ok := verifiedCaller(r.Context()); ok && v.err == nil && v.caller.User.ID != 0 {
		return cfg.Default, "user:" + strconv.FormatInt(v.caller.User.ID, 10)
	}
	return cfg.Default, "ip:" + ClientIP(r, cfg.TrustedProxies)
}

// seconds renders a duration as whole seconds, rounded up.
func seconds(d time.Duration) string {
	return strconv.Itoa(int(math.Ceil(d.Seconds())))
}

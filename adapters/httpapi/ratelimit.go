package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
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
	// Default applies per client to every API route: per API key when a
	// Bearer key is sent, per IP otherwise.
	Default ratelimit.Limit
	// Auth is the stricter quota of POST /register and /login, per IP.
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
// Operations endpoints (/healthz, /readyz, /metrics, docs) are not limited.
func rateLimited(next http.Handler, limiter ports.RateLimiter, cfg RateLimits) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit, key := quotaFor(r, cfg)
		if limiter == nil || !limit.Enabled() {
			next.ServeHTTP(w, r)
			return
		}
		d, err := limiter.Take(r.Context(), key, limit)
		if err != nil { // fail open: a broken limiter must not take the API down
			slog.WarnContext(r.Context(), "rate limiter failed", "err", err)
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("RateLimit-Limit", strconv.Itoa(d.Limit))
		h.Set("RateLimit-Remaining", strconv.Itoa(d.Remaining))
		h.Set("RateLimit-Reset", seconds(d.Reset))
		if !d.Allowed {
			h.Set("Retry-After", seconds(d.RetryAfter))
			writeError(w, http.StatusTooManyRequests, "rate limit exceeded: retry after "+seconds(d.RetryAfter)+" s")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// quotaFor picks the limit and the client key of a request.
func quotaFor(r *http.Request, cfg RateLimits) (ratelimit.Limit, string) {
	p := r.URL.Path
	if !strings.HasPrefix(p, prefix+"/") && !strings.HasPrefix(p, sharePrefix) {
		return ratelimit.Limit{}, ""
	}
	ip := clientIP(r, cfg.TrustedProxies)
	if r.Method == http.MethodPost && (p == prefix+"/login" || p == prefix+"/register") {
		return cfg.Auth, "auth:" + ip
	}
	if token := bearerToken(r.Header.Get("Authorization")); token != "" {
		sum := sha256.Sum256([]byte(token))
		return cfg.Default, "key:" + hex.EncodeToString(sum[:8])
	}
	return cfg.Default, "ip:" + ip
}

// seconds renders a duration as whole seconds, rounded up.
func seconds(d time.Duration) string {
	return strconv.Itoa(int(math.Ceil(d.Seconds())))
}

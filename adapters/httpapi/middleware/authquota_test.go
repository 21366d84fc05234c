package middleware_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// TestAuthQuotaPerIPv6Network: the registration and login quota is kept
// per IPv4 address and per IPv6 /64 (what one subscriber holds), so an
// attacker cannot multiply it, e.g. to list which e-mails have accounts,
// by rotating the addresses of a single /64.
func TestAuthQuotaPerIPv6Network(t *testing.T) {
	clock := &fixedClock{t: time.Unix(1e9, 0)}
	h := newLimitedHandler(t, middleware.RateLimits{Auth: ratelimit.Limit{Requests: 2, Window: time.Minute}}, clock, nil, nil)
	register := func(remote, email string) int {
		req := httptest.NewRequest(http.MethodPost, "/api/v1/register", strings.NewReader(`{"email":"`+email+`","password":"correct horse"}`))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = remote
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	for i, remote := range []string{"[2001:db8:1:2::1]:1", "[2001:db8:1:2:ffff::9]:1"} {
		if got := register(remote, "a"+string(rune('0'+i))+"@example.com"); got == http.StatusTooManyRequests {
			t.Fatalf("registration %d from %s = 429 within the quota", i, remote)
		}
	}
	if got := register("[2001:db8:1:2:abcd::7]:1", "a9@example.com"); got != http.StatusTooManyRequests {
		t.Errorf("a third registration from the same /64 = %d, want 429", got)
	}
	if got := register("[2001:db8:1:3::1]:1", "b@example.com"); got == http.StatusTooManyRequests {
		t.Errorf("another /64 = 429, want its own quota")
	}
	if register("198.51.100.1:1", "c@example.com") == http.StatusTooManyRequests || register("198.51.100.2:1", "d@example.com") == http.StatusTooManyRequests {
		t.Errorf("IPv4 addresses share a quota, want one each")
	}
}

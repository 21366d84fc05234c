package middleware_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// TestChargeMetered: a POST at a metered path may charge more requests of
// its quota with Charge (another transport's batch), and a charge beyond
// a whole window is refused, not let through as a limiter failure;
// elsewhere Charge is free.
func TestChargeMetered(t *testing.T) {
	mux := http.NewServeMux()
	charge := func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		if d := middleware.Charge(r.Context(), n); !d.Allowed {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusOK)
	}
	mux.HandleFunc("POST /batch", charge)
	mux.HandleFunc("POST /other", charge)
	h := middleware.NewHandler(mux, middleware.Options{
		Limiter:    memory.NewRateLimiterWithClock(func() time.Time { return time.Unix(1e9, 0) }),
		RateLimits: middleware.RateLimits{Default: ratelimit.Limit{Requests: 10, Window: time.Minute}},
		Metered:    []string{"/batch"},
	})
	do := func(target string) int {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, target, nil))
		return rec.Code
	}
	if got := do("/other?n=50"); got != http.StatusOK {
		t.Errorf("Charge at a path not metered = %d, want 200 (free)", got)
	}
	if got := do("/batch?n=50"); got != http.StatusTooManyRequests {
		t.Errorf("a charge of 50 under 10 a minute = %d, want 429", got)
	}
	if got := do("/batch?n=5"); got != http.StatusOK { // 1 + 1 + 1 + 5 of 10
		t.Errorf("a charge of 5 = %d, want 200", got)
	}
	if got := do("/batch?n=5"); got != http.StatusTooManyRequests {
		t.Errorf("a second charge of 5 = %d, want 429", got)
	}
}

package middleware_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// quotaServer is the production handler with accounts, report pages and a
// quota of 5 requests a minute (login and register unlimited), keys
// verified at the edge; verifications counts the keys looked up.
type quotaServer struct {
	h             http.Handler
	verifications *atomic.Int64
}

// countingStore counts the API-key lookups of an account store.
type countingStore struct {
	ports.AccountStore
	lookups *atomic.Int64
}

func (s countingStore) KeyByHash(ctx context.Context, hash string, now time.Time) (account.APIKey, error) {
	s.lookups.Add(1)
	return s.AccountStore.KeyByHash(ctx, hash, now)
}

func newQuotaServer(t *testing.T, limits middleware.RequestLimits, extra func(*http.ServeMux)) *quotaServer {
	t.Helper()
	s := &quotaServer{verifications: new(atomic.Int64)}
	acc := accounts.New(countingStore{memory.NewAccountStore(), s.verifications}, apitest.Passwords)
	store := memory.NewReportStore()
	mux := http.NewServeMux()
	if err := httpapi.Register(httpapi.NewAPI(mux), httpapi.Routes{
		Health: health.New(nil), Accounts: acc,
		Reports: reports.New(store, apitest.NewFakeAnalyser(), apitest.Passwords), Projects: reports.NewProjects(store),
	}); err != nil {
		t.Fatal(err)
	}
	if extra != nil {
		extra(mux)
	}
	s.h = middleware.NewHandler(mux, middleware.Options{
		Limiter:      memory.NewRateLimiterWithClock(func() time.Time { return time.Unix(1e9, 0) }),
		RateLimits:   middleware.RateLimits{Default: ratelimit.Limit{Requests: 5, Window: time.Minute}},
		Limits:       limits,
		Authenticate: acc.Authenticate,
	})
	return s
}

// answered sends n GETs of target, the i-th with the headers of header(i),
// and counts the answers by status.
func answered(t *testing.T, h http.Handler, n int, target string, header func(i int) []string) map[int]int {
	t.Helper()
	counts := map[int]int{}
	for i := range n {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		hs := header(i)
		for j := 0; j+1 < len(hs); j += 2 {
			req.Header.Set(hs[j], hs[j+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		counts[rec.Code]++
	}
	return counts
}

// TestRateLimitMadeUpKeys: a made-up key per request used to get a fresh
// quota each (8 of 8 answered 200 under 5 a minute); unverified keys count
// against the client IP.
func TestRateLimitMadeUpKeys(t *testing.T) {
	s := newQuotaServer(t, middleware.RequestLimits{}, nil)
	got := answered(t, s.h, 8, "/api/v1/digipin/info", func(i int) []string { return apitest.Bearer("psk_madeup" + strconv.Itoa(i)) })
	t.Logf("8 made-up keys under 5/min: %d answered 200, %d 429", got[200], got[429])
	if got[200] != 5 || got[429] != 3 {
		t.Errorf("made-up keys: %v, want 5 x 200 and 3 x 429", got)
	}
	// On a protected route an unverified key is 401, and still counted on the IP.
	s = newQuotaServer(t, middleware.RequestLimits{}, nil)
	got = answered(t, s.h, 8, "/api/v1/account", func(i int) []string { return apitest.Bearer("psk_madeup" + strconv.Itoa(i)) })
	if got[401] != 5 || got[429] != 3 {
		t.Errorf("made-up keys on /account: %v, want 5 x 401 and 3 x 429", got)
	}
}

// TestRateLimitPerUser: every key of a user shares one quota (minting or
// rotating keys does not reset it); verified requests do not use up the
// IP's quota, and another user has a quota of their own.
func TestRateLimitPerUser(t *testing.T) {
	s := newQuotaServer(t, middleware.RequestLimits{}, nil)
	keys := []string{apitest.Login(t, s.h, "ada@example.com"), apitest.Login(t, s.h, "ada@example.com")}
	res := apitest.Do(t, s.h, http.MethodPost, "/api/v1/account/api-key", "", "", apitest.Bearer(keys[1])...) // request 1
	var rotated wire.TokenData
	res.Decode(t, &rotated)
	keys[1] = rotated.Token
	got := answered(t, s.h, 7, "/api/v1/account", func(i int) []string { return apitest.Bearer(keys[i%2]) })
	t.Logf("one user, 2 keys, 1 rotation, 8 requests under 5/min: %d answered 2xx, %d 429", got[200]+1, got[429])
	if got[200] != 4 || got[429] != 3 {
		t.Errorf("one user's keys: %v after a rotation, want 4 x 200 and 3 x 429", got)
	}
	if res := apitest.Do(t, s.h, http.MethodGet, "/api/v1/digipin/info", "", ""); res.Status != http.StatusOK {
		t.Errorf("anonymous request from the same IP = %d, want 200 (the user's requests are not the IP's)", res.Status)
	}
	bob := apitest.Login(t, s.h, "bob@example.com")
	if res := apitest.Do(t, s.h, http.MethodGet, "/api/v1/account", "", "", apitest.Bearer(bob)...); res.Status != http.StatusOK {
		t.Errorf("another user = %d, want 200", res.Status)
	}
}

// TestKeyVerifiedOnce: the edge verifies a key once; the operation reuses
// the verdict.
func TestKeyVerifiedOnce(t *testing.T) {
	s := newQuotaServer(t, middleware.RequestLimits{}, nil)
	key := apitest.Login(t, s.h, "ada@example.com")
	s.verifications.Store(0)
	if res := apitest.Do(t, s.h, http.MethodGet, "/api/v1/account", "", "", apitest.Bearer(key)...); res.Status != http.StatusOK {
		t.Fatalf("GET /account = %d", res.Status)
	}
	if res := apitest.Do(t, s.h, http.MethodGet, "/api/v1/account", "", "", apitest.Bearer("psk_wrong")...); res.Status != http.StatusUnauthorized {
		t.Fatalf("GET /account with a wrong key = %d, want 401", res.Status)
	}
	if n := s.verifications.Load(); n != 2 {
		t.Errorf("2 requests verified %d keys, want 2 (once each)", n)
	}
}

// TestSharePageLimitedPerIP: the public report page counts against the
// client IP, whatever key it is sent.
func TestSharePageLimitedPerIP(t *testing.T) {
	s := newQuotaServer(t, middleware.RequestLimits{}, nil)
	got := answered(t, s.h, 8, "/reports/1", func(i int) []string { return apitest.Bearer("psk_madeup" + strconv.Itoa(i)) })
	if got[404] != 5 || got[429] != 3 {
		t.Errorf("report page with made-up keys: %v, want 5 x 404 and 3 x 429", got)
	}
}

// TestSlotTakenAfterQuota: requests refused by the rate limit never wait
// for (or take) a concurrency slot: with every slot held, a client over its
// quota gets 429, not 503.
func TestSlotTakenAfterQuota(t *testing.T) {
	inside, release := make(chan struct{}, 1), make(chan struct{})
	s := newQuotaServer(t, middleware.RequestLimits{MaxConcurrent: 1}, func(mux *http.ServeMux) {
		mux.HandleFunc("GET /api/v1/slow", func(w http.ResponseWriter, _ *http.Request) {
			inside <- struct{}{}
			<-release
			_, _ = io.WriteString(w, `{"success":true,"data":null}`)
		})
	})
	other := func(int) []string { return []string{"X-Filler", "x"} }
	if got := answered(t, s.h, 4, "/api/v1/digipin/info", other); got[200] != 4 {
		t.Fatalf("warm-up: %v", got)
	}
	done := make(chan struct{})
	go func() { defer close(done); answered(t, s.h, 1, "/api/v1/slow", other) }()
	<-inside // the one slot is taken, and the client's 5th request with it
	got := answered(t, s.h, 3, "/api/v1/digipin/info", other)
	close(release)
	<-done
	if got[429] != 3 {
		t.Errorf("over the quota with every slot held: %v, want 3 x 429", got)
	}
}

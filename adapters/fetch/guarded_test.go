package fetch_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// TestGuardedDialFollowsTheGuard: the exported Dial refuses what the
// fetcher refuses (a loopback server not allowed, a public-looking name
// resolving to it), dials an allowed target, and returns admit's error as
// it is.
func TestGuardedDialFollowsTheGuard(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	defer srv.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	defer other.Close()
	allowed := strings.TrimPrefix(srv.URL, "http://")
	_, otherPort, _ := net.SplitHostPort(strings.TrimPrefix(other.URL, "http://"))
	f, err := fetch.New(fetch.Config{AllowTargets: []string{allowed}, Resolver: &fakeResolver{addrs: map[string][]netip.Addr{
		"public.example": {netip.MustParseAddr("127.0.0.1")},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := f.Dial(ctx, "tcp", allowed, nil)
	if err != nil {
		t.Fatalf("allowed target: %v", err)
	}
	conn.Close()
	for _, addr := range []string{strings.TrimPrefix(other.URL, "http://"), "public.example:" + otherPort, "localhost:" + otherPort} {
		_, err := f.Dial(ctx, "tcp", addr, nil)
		var fe *webpage.FetchError
		if !errors.As(err, &fe) || !fe.Refused {
			t.Errorf("Dial(%s) = %v, want a refusal", addr, err)
		}
	}
	stop := errors.New("throttled")
	if _, err := f.Dial(ctx, "tcp", allowed, func(context.Context, ports.Target) error { return stop }); err != stop {
		t.Errorf("admit's error = %v, want it as it is", err)
	}
}

// TestCheckHostPortRefusesPortsAndLiterals: a CONNECT's host:port is
// refused on its port and its address literal as a URL would be.
func TestCheckHostPortRefusesPortsAndLiterals(t *testing.T) {
	f, err := fetch.New(fetch.Config{AllowTargets: []string{"127.0.0.1:8080"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, hp := range []string{"example.com:22", "127.0.0.1:80", "10.0.0.1:443", "localhost:443", "nonsense"} {
		var fe *webpage.FetchError
		if err := f.CheckHostPort(hp); !errors.As(err, &fe) || !fe.Refused {
			t.Errorf("CheckHostPort(%s) = %v, want a refusal", hp, err)
		}
	}
	for _, hp := range []string{"example.com:443", "example.com:80", "127.0.0.1:8080"} {
		if err := f.CheckHostPort(hp); err != nil {
			t.Errorf("CheckHostPort(%s) = %v, want nil", hp, err)
		}
	}
	if err := f.CheckURL("file:///etc/passwd"); err == nil {
		t.Error("CheckURL(file:) = nil, want a refusal")
	}
}

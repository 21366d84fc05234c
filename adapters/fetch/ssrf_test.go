package fetch_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/webpage"
)

// fakeResolver answers every lookup with fixed addresses and counts calls;
// it never touches the network.
type fakeResolver struct {
	addrs map[string][]netip.Addr
	calls atomic.Int32
}

func (r *fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.calls.Add(1)
	if a, ok := r.addrs[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// countingServer is a local server recording whether anything reached it.
func countingServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte("<title>internal</title>"))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// quiet drops the refusal details the fetcher logs.
var quiet = slog.New(slog.DiscardHandler)

// refused checks that err is a refused *webpage.FetchError. A refused address
// is only "not a public address" to the client: want (what the guard found)
// must then be in the RefusedError's Detail, which is logged, and nowhere in
// what the client sees. Other refusals (scheme, port, ...) give want as the
// reason.
func refused(t *testing.T, err error, want string) {
	t.Helper()
	var fe *webpage.FetchError
	var re *fetch.RefusedError
	if !errors.As(err, &fe) || !errors.As(err, &re) {
		t.Fatalf("err = %v, want a *webpage.FetchError from a *fetch.RefusedError", err)
	}
	if got := fe.FieldErrors()["url"]; len(got) != 1 || got[0] != fe.Reason || !fe.Refused {
		t.Errorf("field errors = %v, refused %v", fe.FieldErrors(), fe.Refused)
	}
	if re.Detail == "" {
		if !strings.Contains(fe.Reason, want) {
			t.Errorf("reason %q, want it to say %q", fe.Reason, want)
		}
		return
	}
	if !strings.HasPrefix(fe.Reason, "refused: not a public address") || (want != "" && strings.Contains(fe.Error(), want)) {
		t.Errorf("an address refusal tells the client %q (%q), want \"refused: not a public address\" and nothing of %q", fe.Reason, fe.Error(), want)
	}
	if !strings.Contains(re.Detail, want) {
		t.Errorf("logged detail %q, want it to say %q", re.Detail, want)
	}
}

// TestSSRFTargetsAreRefused: no address below is dialled at all (the
// resolver is fake and every one is refused before connecting), so no packet
// leaves the machine.
func TestSSRFTargetsAreRefused(t *testing.T) {
	res := &fakeResolver{addrs: map[string][]netip.Addr{
		"public-looking.example":  {netip.MustParseAddr("127.0.0.1")},
		"rebinding.example":       {netip.MustParseAddr("10.1.2.3"), netip.MustParseAddr("192.168.0.7")},
		"mapped.example":          {netip.MustParseAddr("::ffff:169.254.169.254")},
		"metadata.google.example": {netip.MustParseAddr("169.254.169.254")},
	}}
	f, err := fetch.New(fetch.Config{Resolver: res, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ url, reason string }{
		{"http://127.0.0.1", "127.0.0.1 is a loopback address"},
		{"http://127.0.0.1:80/admin", "loopback"},
		{"https://127.1.2.3/", "loopback"},
		{"http://[::1]", "::1 is a loopback address"},
		{"http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a cloud metadata address"},
		{"http://[fd00:ec2::254]/", "cloud metadata"},
		{"http://10.0.0.1", "10.0.0.1 is a private address"},
		{"http://172.16.5.4", "private"},
		{"http://192.168.1.1", "private"},
		{"http://100.64.0.1", "CGNAT"},
		{"http://0.0.0.0", "unspecified"},
		{"http://[::]/", "unspecified"},
		{"http://[fe80::1]/", "link-local"},
		{"http://169.254.10.10/", "link-local"},
		{"http://[fc00::1]/", "unique-local"},
		{"http://224.0.0.1/", "multicast"},
		{"http://[ff02::1]/", "multicast"},
		{"http://[::ffff:127.0.0.1]/", "127.0.0.1 is a loopback address"},
		{"http://[64:ff9b::a00:1]/", "via NAT64"},
		{"http://[2002:c0a8:101::1]/", "via 6to4"},
		{"http://public-looking.example/", "public-looking.example resolves to 127.0.0.1, a loopback address"},
		{"http://rebinding.example/", "private"},
		{"http://mapped.example/", "cloud metadata"},
		{"http://metadata.google.example/", "cloud metadata"},
		{"ftp://ftp.example/", "only http and https"},
		{"file:///etc/passwd", "only http and https"},
		{"http://user:secret@site.example/", "credentials"},
		{"http://site.example:8080/", "port 8080 is not allowed"},
		{"http:///nohost", "no host"},
		// Numbers that are not canonical addresses are refused as written,
		// before any lookup (the resolver count below stays 4).
		{"http://127.1/", "not a canonical IP address"},
		{"http://2130706433/", "not a canonical IP address"},
		{"http://0x7f000001/", "not a canonical IP address"},
		{"http://0177.0.0.1/", "not a canonical IP address"},
		{"http://127.000.000.001/", "not a canonical IP address"},
		{"http://127.0.0.1./", "not a canonical IP address"},
		{"http://0x7f.1:443/", "not a canonical IP address"},
		{"http://\uff11\uff12\uff17\u3002\uff11/", "not a canonical IP address"}, // fullwidth "127.1"
	} {
		t.Run(tc.url, func(t *testing.T) {
			_, err := f.Fetch(context.Background(), tc.url, nil)
			refused(t, err, tc.reason)
		})
	}
	if n := res.calls.Load(); n != 4 {
		t.Errorf("resolver called %d times, want 4 (only the named hosts on allowed ports)", n)
	}
}

// TestRefusalDoesNotNameTheAddress: a name resolving to an internal address
// is refused as "not a public address"; which address, and what kind, goes
// to the log only.
func TestRefusalDoesNotNameTheAddress(t *testing.T) {
	var log bytes.Buffer
	f, err := fetch.New(fetch.Config{
		Resolver: &fakeResolver{addrs: map[string][]netip.Addr{"intranet.example": {netip.MustParseAddr("10.1.2.3")}}},
		Log:      slog.New(slog.NewTextHandler(&log, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Fetch(context.Background(), "https://intranet.example/admin", nil)
	var fe *webpage.FetchError
	if !errors.As(err, &fe) || !fe.Refused {
		t.Fatalf("err = %v, want a refusal", err)
	}
	shown := fe.Error() + " " + strings.Join(fe.FieldErrors()["url"], " ")
	if !strings.HasPrefix(fe.Reason, "refused: not a public address") || strings.Contains(shown, "10.1.2.3") || strings.Contains(shown, "private") {
		t.Errorf("the client is told %q", shown)
	}
	if !strings.Contains(log.String(), "intranet.example resolves to 10.1.2.3, a private address") {
		t.Errorf("the log lacks the detail: %q", log.String())
	}
}

// TestRedirectToPrivateAddressIsRefused: an allowed test server redirecting
// to internal addresses gets the redirect refused, and nothing reaches the
// internal server.
func TestRedirectToPrivateAddressIsRefused(t *testing.T) {
	internal, hits := countingServer(t)
	internalPort := internal.Listener.Addr().(*net.TCPAddr).Port
	entry := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-loopback":
			http.Redirect(w, r, internal.URL+"/secret", http.StatusFound)
		case "/to-private":
			http.Redirect(w, r, "http://10.0.0.1/", http.StatusFound)
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusMovedPermanently)
		case "/to-name":
			http.Redirect(w, r, "http://public-looking.example:"+strconv.Itoa(internalPort)+"/", http.StatusFound)
		case "/to-ftp":
			http.Redirect(w, r, "ftp://files.example/", http.StatusFound)
		case "/to-number":
			http.Redirect(w, r, "http://2130706433:"+strconv.Itoa(internalPort)+"/", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(entry.Close)
	res := &fakeResolver{addrs: map[string][]netip.Addr{"public-looking.example": {netip.MustParseAddr("127.0.0.1")}}}
	f, err := fetch.New(fetch.Config{
		AllowTargets: []string{hostPort(t, entry.URL)},
		AllowPorts:   []int{internalPort}, // the port is fine; the address is not
		Resolver:     res,
		Log:          quiet,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, reason string }{
		{"/to-loopback", "127.0.0.1 is a loopback address"},
		{"/to-private", "10.0.0.1 is a private address"},
		{"/to-metadata", "cloud metadata"},
		{"/to-name", "public-looking.example resolves to 127.0.0.1, a loopback address"},
		{"/to-ftp", "only http and https"},
		{"/to-number", "not a canonical IP address"},
	} {
		_, err := f.Fetch(context.Background(), entry.URL+tc.path, nil)
		refused(t, err, tc.reason)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the internal server got %d requests", n)
	}
	if n := res.calls.Load(); n != 1 {
		t.Errorf("resolver called %d times, want 1 (public-looking.example; never a number)", n)
	}
	// The allow-list is exact: the same host on another port is guarded.
	_, err = f.Fetch(context.Background(), internal.URL+"/", nil)
	refused(t, err, "loopback")
}

// TestAllowPrivateLiftsTheGuard: --allow-private-targets, for local testing.
func TestAllowPrivateLiftsTheGuard(t *testing.T) {
	internal, hits := countingServer(t)
	f, err := fetch.New(fetch.Config{AllowPrivate: true})
	if err != nil {
		t.Fatal(err)
	}
	fd, err := f.Fetch(context.Background(), internal.URL+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	if fd.Page.Status != 200 || hits.Load() < 1 {
		t.Errorf("status %d, %d hits", fd.Page.Status, hits.Load())
	}
	if _, err := f.Fetch(context.Background(), "gopher://"+hostPort(t, internal.URL)+"/", nil); err == nil {
		t.Error("the scheme rule still applies with private targets allowed")
	}
}

func TestBlockedReason(t *testing.T) {
	for _, tc := range []struct {
		ip      string
		blocked bool
	}{
		{"127.0.0.1", true}, {"::1", true}, {"10.255.0.1", true}, {"172.31.255.255", true},
		{"172.32.0.1", false}, {"192.168.0.1", true}, {"100.64.0.0", true}, {"100.127.255.255", true},
		{"100.128.0.1", false}, {"169.254.169.254", true}, {"fd00:ec2::254", true}, {"::ffff:10.0.0.1", true},
		{"0.0.0.0", true}, {"255.255.255.255", true}, {"198.18.0.1", true}, {"192.0.2.1", true},
		{"8.8.8.8", false}, {"1.1.1.1", false}, {"2606:4700:4700::1111", false}, {"64:ff9b::808:808", false},
		{"2002:808:808::1", false}, {"fe80::1", true}, {"ff02::1", true}, {"2001:db8::1", true},
	} {
		if got := fetch.BlockedReason(netip.MustParseAddr(tc.ip)); (got != "") != tc.blocked {
			t.Errorf("BlockedReason(%s) = %q, want blocked=%v", tc.ip, got, tc.blocked)
		}
	}
}

// TestDialControlIsTheLastWord: the socket hook refuses a blocked address
// whatever produced it.
func TestDialControlIsTheLastWord(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:80", "[::1]:443", "169.254.169.254:80", "[::ffff:10.0.0.1]:80"} {
		var re *fetch.RefusedError
		if err := fetch.ControlCheck(fetch.Config{}, addr); !errors.As(err, &re) {
			t.Errorf("control(%s) = %v, want refused", addr, err)
		}
	}
	// Only inspected, never dialled.
	if err := fetch.ControlCheck(fetch.Config{}, "93.184.215.14:443"); err != nil {
		t.Errorf("control refused a public address: %v", err)
	}
}

func TestConfigRejectsBadAllowLists(t *testing.T) {
	for _, cfg := range []fetch.Config{{AllowTargets: []string{"no-port"}}, {AllowPorts: []int{70000}}} {
		if _, err := fetch.New(cfg); err == nil {
			t.Errorf("New(%+v) accepted a bad allow-list", cfg)
		}
	}
}

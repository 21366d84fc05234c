package fetch_test

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/webpage"
)

// reasonOf is the reason a refused fetch gives the client.
func reasonOf(t *testing.T, err error) string {
	t.Helper()
	var fe *webpage.FetchError
	if !errors.As(err, &fe) || !fe.Refused {
		t.Fatalf("err = %v, want a refusal", err)
	}
	return fe.Reason
}

// TestRefusalSaysHowToAllow: a local target on another port is refused
// once for both its address and its port, the reason naming the flag and
// the Config field that allow it; following the hint lets the same URL
// through.
func TestRefusalSaysHowToAllow(t *testing.T) {
	srv, hits := countingServer(t)
	target := hostPort(t, srv.URL) // 127.0.0.1:<port>
	port := target[strings.LastIndex(target, ":")+1:]
	res := &fakeResolver{addrs: map[string][]netip.Addr{"public-looking.example": {netip.MustParseAddr("127.0.0.1")}}}
	f, err := fetch.New(fetch.Config{Resolver: res, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ url, want string }{
		{srv.URL + "/", "refused: not a public address, and port " + port + " is not allowed (only 80 and 443); " +
			"to analyse it anyway, start the server with --allow-target " + target + " (a library sets fetch.Config.AllowTargets)"},
		{"http://LocalHost:" + port + "/", "refused: not a public address, and port " + port + " is not allowed (only 80 and 443); " +
			"to analyse it anyway, start the server with --allow-target localhost:" + port + " (a library sets fetch.Config.AllowTargets)"},
		{"http://[::1]:" + port + "/", "--allow-target [::1]:" + port + " "},
		{"http://10.0.0.1/", "refused: not a public address; to analyse it anyway, start the server with --allow-target 10.0.0.1:80 (a library sets fetch.Config.AllowTargets)"},
		{"https://public-looking.example/", "refused: not a public address; to analyse it anyway, start the server with --allow-target public-looking.example:443 (a library sets fetch.Config.AllowTargets)"},
		{"http://site.example:8080/", "refused: port 8080 is not allowed (only 80 and 443); to analyse it anyway, start the server with " +
			"--allow-port 8080 or --allow-target site.example:8080 (a library sets fetch.Config.AllowPorts or AllowTargets)"},
	} {
		_, err := f.Fetch(context.Background(), c.url, nil)
		if got := reasonOf(t, err); !strings.Contains(got, c.want) {
			t.Errorf("Fetch(%s) reason\n %q\nwant it to hold\n %q", c.url, got, c.want)
		}
	}
	if n := res.calls.Load(); n != 1 {
		t.Errorf("resolver called %d times, want 1 (a refused port is never looked up)", n)
	}
	if hits.Load() != 0 {
		t.Fatal("a refused target was contacted")
	}

	// What the hint names is what lets the URL through.
	allowed, err := fetch.New(fetch.Config{AllowTargets: []string{target}, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if fd, err := allowed.Fetch(context.Background(), srv.URL+"/", nil); err != nil || fd.Page.Status != 200 || hits.Load() == 0 {
		t.Fatalf("Fetch with --allow-target %s = %v, want the page", target, err)
	}
	// Refusals no allow-list lifts give no hint.
	for _, u := range []string{"ftp://files.example/", "http://127.1/", "http://user:pw@site.example/"} {
		_, err := f.Fetch(context.Background(), u, nil)
		if got := reasonOf(t, err); strings.Contains(got, "--allow") {
			t.Errorf("Fetch(%s) reason %q offers a flag that would not allow it", u, got)
		}
	}
}

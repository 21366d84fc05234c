package crawls_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/webpage"
)

// TestCreateRefusesWhatTheGuardRefuses: a crawl of a loopback, private
// or unlisted-port target, or of a host name that does not resolve, is
// refused when it is asked for (a *webpage.FetchError on url, which the
// API answers 422), the reason naming --allow-target where an allow-list
// entry would let it through, as a report's refusal does; nothing is
// queued.
func TestCreateRefusesWhatTheGuardRefuses(t *testing.T) {
	res := fakeResolver{"public.example": "93.184.216.34", "inside.example": "10.1.2.3"}
	e := newEnvFetching(t, crawls.Config{}, fetch.Config{Resolver: res, Timeout: 5 * time.Second})
	for url, want := range map[string]string{
		"http://127.0.0.1:8080/":        "--allow-target 127.0.0.1:8080",
		"http://localhost/":             "--allow-target localhost:80",
		"http://10.0.0.1/":              "--allow-target 10.0.0.1:80",
		"http://inside.example/":        "--allow-target inside.example:80",
		"http://public.example:8080/":   "--allow-port 8080 or --allow-target public.example:8080",
		"http://typo.example/":          "the host name typo.example does not resolve",
		"http://169.254.169.254/latest": "not a public address",
	} {
		_, err := e.crawls.Create(context.Background(), 1, crawl.Params{URL: url}, nil)
		var fe *webpage.FetchError
		if !errors.As(err, &fe) || !fe.Refused || len(fe.FieldErrors()["url"]) != 1 || !strings.Contains(fe.Reason, want) {
			t.Errorf("Create(%s) = %v, want a refusal on url naming %q", url, err, want)
		}
	}
	if _, n, err := e.crawls.List(context.Background(), 1, crawl.ListQuery{}); err != nil || n != 0 {
		t.Errorf("%d crawls stored (%v), want none", n, err)
	}
	if _, err := e.crawls.Create(context.Background(), 1, crawl.Params{URL: "http://public.example/"}, nil); err != nil {
		t.Errorf("Create of a public site = %v, want it queued", err)
	}
}

// TestStartURLFailureSaysWhy: a crawl whose start URL does not answer
// (here the allowed port has no server: connection refused) ends failed,
// its failure saying why, not finished with an empty failure.
func TestStartURLFailureSaysWhy(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close() // nothing listens there now
	e := newEnvFetching(t, crawls.Config{}, fetch.Config{AllowTargets: []string{addr}, Timeout: 5 * time.Second})
	e.start(t)
	c, err := e.crawls.Create(context.Background(), 1, crawl.Params{URL: "http://" + addr + "/", MaxPages: ptr(5)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := e.waitFinal(t, c.ID, 30*time.Second)
	if got.Status != crawl.StatusFailed || !strings.Contains(got.Failure, "http://"+addr+"/") ||
		!strings.Contains(got.Failure, "could not be reached") {
		t.Errorf("crawl ended %s with failure %q, want failed, the failure naming the start URL and why", got.Status, got.Failure)
	}
}

package fetch_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/domain/webpage"
)

// TestPosterWire: a webhook message arrives as a POST of its body as JSON,
// with the signature, event and delivery id in the headers receivers read,
// and Post returns the status the endpoint answered.
func TestPosterWire(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- err.Error()
			return
		}
		defer c.Close()
		req, err := http.ReadRequest(bufio.NewReader(c))
		if err != nil {
			got <- err.Error()
			return
		}
		body, _ := io.ReadAll(req.Body)
		var b strings.Builder
		b.WriteString(req.Method + " " + req.RequestURI + "\n")
		_ = req.Header.WriteSubset(&b, nil)
		b.WriteString(string(body))
		got <- b.String()
		_, _ = io.WriteString(c, "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
	}()
	url := "http://" + ln.Addr().String() + "/hook?x=1"
	p, err := fetch.NewPoster(fetch.Config{AllowTargets: []string{hostPort(t, url)}, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	body := `{"event":"report.finished"}`
	sig := webhook.Signature("0123456789abcdef", time.Unix(1700000000, 0), []byte(body))
	status, err := p.Post(context.Background(), url, webhook.Message{Event: webhook.EventReportFinished, DeliveryID: 42, Signature: sig, Body: []byte(body)})
	if err != nil || status != http.StatusAccepted {
		t.Fatalf("Post = %d, %v; want 202", status, err)
	}
	want := "POST /hook?x=1\n" +
		"Accept-Encoding: gzip\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n" +
		"Content-Type: application/json\r\n" +
		"Pinsight-Delivery: 42\r\n" +
		"Pinsight-Event: report.finished\r\n" +
		"Pinsight-Signature: " + sig + "\r\n" +
		"User-Agent: Pinsight-Webhook/1\r\n" + body
	if g := <-got; g != want {
		t.Errorf("the endpoint received\n%q\nwant\n%q", g, want)
	}
}

// resolverFunc is a Resolver written as a function.
type resolverFunc func(host string) ([]netip.Addr, error)

func (f resolverFunc) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	return f(host)
}

// TestPosterCheck: a webhook URL is refused at creation when a delivery
// would be: a name that always means this machine (never looked up), a
// name that does not exist, a name whose addresses are all private; a
// name with a public address passes, and so does one whose lookup fails
// for now (the delivery looks it up again).
func TestPosterCheck(t *testing.T) {
	res := &fakeResolver{addrs: map[string][]netip.Addr{
		"localhost":         {netip.MustParseAddr("127.0.0.1")},
		"public.example":    {netip.MustParseAddr("93.184.216.34")},
		"mixed.example":     {netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("93.184.216.34")},
		"intranet.example":  {netip.MustParseAddr("10.0.0.7")},
		"metadata.example":  {netip.MustParseAddr("169.254.169.254")},
		"sub.localhost":     {netip.MustParseAddr("93.184.216.34")}, // a resolver lying about a loopback name
		"api.dev.localhost": {netip.MustParseAddr("93.184.216.34")},
	}}
	p, err := fetch.NewPoster(fetch.Config{Resolver: res, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		url, reason string // reason "": accepted
	}{
		{"http://localhost/hook", "not a public address"},
		{"https://LocalHost./hook", "not a public address"},
		{"http://sub.localhost/hook", "not a public address"},
		{"http://api.dev.localhost./hook", "not a public address"},
		{"http://ｌｏｃａｌｈｏｓｔ/hook", "not a public address"},
		{"http://127.0.0.1/hook", "not a public address"},
		{"https://intranet.example/hook", "not a public address"},
		{"https://metadata.example/hook", "not a public address"},
		{"https://typo.example/hook", "the host name typo.example does not resolve"},
		{"https://public.example/hook", ""},
		{"https://mixed.example/hook", ""},
	} {
		before := res.calls.Load()
		err := p.Check(context.Background(), c.url)
		var fe *webpage.FetchError
		switch {
		case c.reason == "" && err != nil:
			t.Errorf("Check(%s) = %v, want accepted", c.url, err)
		case c.reason != "" && (!errors.As(err, &fe) || !fe.Refused || !strings.HasPrefix(fe.Reason, c.reason)): // then the hint, if any
			t.Errorf("Check(%s) = %v, want refused: %s", c.url, err, c.reason)
		}
		if strings.Contains(strings.ToLower(c.url), "localhost") && res.calls.Load() != before {
			t.Errorf("Check(%s) looked the name up", c.url)
		}
	}

	flaky, err := fetch.NewPoster(fetch.Config{Log: quiet, Resolver: resolverFunc(func(host string) ([]netip.Addr, error) {
		return nil, &net.DNSError{Err: "server misbehaving", Name: host, IsTemporary: true}
	})})
	if err != nil {
		t.Fatal(err)
	}
	if err := flaky.Check(context.Background(), "https://public.example/hook"); err != nil {
		t.Errorf("Check with a failing resolver = %v, want accepted (the delivery looks it up again)", err)
	}
}

// TestPosterDeliveryLookup: at delivery, a loopback name is refused
// before any lookup, a name that does not exist is refused (not worth a
// retry), a lookup that fails for now is transient; a loopback name
// allowed by --allow-target is delivered to.
func TestPosterDeliveryLookup(t *testing.T) {
	m := webhook.Message{Event: webhook.EventReportFinished, DeliveryID: 1, Signature: "t=1,v1=00", Body: []byte(`{}`)}
	var temporary atomic.Bool
	res := resolverFunc(func(host string) ([]netip.Addr, error) {
		switch {
		case temporary.Load():
			return nil, &net.DNSError{Err: "server misbehaving", Name: host, IsTemporary: true}
		case host == "localhost":
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer srv.Close()
	local := "localhost:" + srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	p, err := fetch.NewPoster(fetch.Config{Resolver: res, AllowTargets: []string{local}, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		url, reason string
	}{
		{"http://localhost/hook", "not a public address"},
		{"http://typo.example/hook", "the host name typo.example does not resolve"},
	} {
		_, err := p.Post(ctx, c.url, m)
		var fe *webpage.FetchError
		if !errors.As(err, &fe) || !fe.Refused || fe.Transient || !strings.HasPrefix(fe.Reason, c.reason) {
			t.Errorf("Post(%s) = %v, want refused: %s", c.url, err, c.reason)
		}
	}
	if err := p.Check(ctx, "http://"+local+"/hook"); err != nil {
		t.Errorf("Check of an allowed target = %v", err)
	}
	if st, err := p.Post(ctx, "http://"+local+"/hook", m); err != nil || st != http.StatusNoContent {
		t.Errorf("Post to an allowed target = %d, %v; want 204", st, err)
	}
	temporary.Store(true)
	_, err = p.Post(ctx, "http://public.example/hook", m)
	var fe *webpage.FetchError
	if !errors.As(err, &fe) || fe.Refused || !fe.Transient {
		t.Errorf("Post with a failing resolver = %v, want transient", err)
	}
}

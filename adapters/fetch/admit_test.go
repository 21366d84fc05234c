package fetch_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// recorder is a ports.Admit recording what it is asked, refusing the hosts
// in deny with errDenied.
type recorder struct {
	mu    sync.Mutex
	asked []ports.Target
	deny  map[string]bool
}

var errDenied = errors.New("throttled by the test")

func (r *recorder) admit(_ context.Context, t ports.Target) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, t)
	if r.deny[t.Host] {
		return errDenied
	}
	return nil
}

func (r *recorder) targets() []ports.Target {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ports.Target(nil), r.asked...)
}

// openConns serves a page and counts the connections it holds open.
func openConns(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var open atomic.Int32
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			open.Add(1)
		case http.StateClosed, http.StateHijacked:
			open.Add(-1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &open
}

// TestAdmitSeesEveryFetch: the fetch's admit is asked with the host and the
// address it resolved to, on every fetch (no connection outlives a fetch,
// so a second analysis of a host cannot ride the first one's connection
// past its admission), and a fetch leaves no connection open.
func TestAdmitSeesEveryFetch(t *testing.T) {
	srv, open := openConns(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("<title>ok</title>")) })
	port := strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
	f, err := fetch.New(fetch.Config{
		AllowTargets: []string{"named.example:" + port},
		Resolver:     &fakeResolver{addrs: map[string][]netip.Addr{"named.example": {netip.MustParseAddr("127.0.0.1")}}},
		Log:          quiet,
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		rec := &recorder{}
		fd, err := f.Fetch(context.Background(), "http://named.example:"+port+"/", rec.admit)
		if err != nil || fd.Page.Status != 200 || fd.Robots == nil {
			t.Fatalf("fetch %d: %v", i, err)
		}
		got := rec.targets()
		if len(got) == 0 {
			t.Fatalf("fetch %d was never admitted", i)
		}
		for _, tg := range got {
			if tg.Host != "named.example" || tg.Addr != netip.MustParseAddr("127.0.0.1") {
				t.Errorf("fetch %d admitted %+v, want named.example at 127.0.0.1", i, tg)
			}
		}
		waitFor(t, func() bool { return open.Load() == 0 }, "the fetch left a connection open")
	}
}

// TestAdmitErrorStopsTheFetch: an admission error is returned as it is (not
// as a FetchError), nothing reaches the target, also when the denied host
// comes through a redirect.
func TestAdmitErrorStopsTheFetch(t *testing.T) {
	target, hits := countingServer(t)
	port := strconv.Itoa(target.Listener.Addr().(*net.TCPAddr).Port)
	entry := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://denied.example:"+port+"/", http.StatusFound)
	}))
	t.Cleanup(entry.Close)
	f, err := fetch.New(fetch.Config{
		AllowTargets: []string{"denied.example:" + port, hostPort(t, entry.URL)},
		Resolver:     &fakeResolver{addrs: map[string][]netip.Addr{"denied.example": {netip.MustParseAddr("127.0.0.1")}}},
		Log:          quiet,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"http://denied.example:" + port + "/", entry.URL + "/"} {
		rec := &recorder{deny: map[string]bool{"denied.example": true}}
		_, err := f.Fetch(context.Background(), u, rec.admit)
		var fe *webpage.FetchError
		if !errors.Is(err, errDenied) || errors.As(err, &fe) {
			t.Errorf("%s: err = %v, want the admission error itself", u, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the denied target got %d requests", n)
	}
}

// TestRefusedTargetsAreNotAdmitted: an address the guard refuses is never
// put to admit, so a throttle never counts it.
func TestRefusedTargetsAreNotAdmitted(t *testing.T) {
	f, err := fetch.New(fetch.Config{
		Resolver: &fakeResolver{addrs: map[string][]netip.Addr{"intranet.example": {netip.MustParseAddr("10.0.0.7")}}},
		Log:      quiet,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"http://intranet.example/", "http://127.0.0.1/", "http://127.1/", "http://example.com:22/"} {
		rec := &recorder{}
		_, err := f.Fetch(context.Background(), u, rec.admit)
		refused(t, err, "")
		if got := rec.targets(); len(got) != 0 {
			t.Errorf("%s: admitted %v", u, got)
		}
	}
}

// waitFor polls cond for up to a minute: the server notices a closed
// connection a moment after the client closes it.
func waitFor(t *testing.T, cond func() bool, msg string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal(msg)
		}
	}
}

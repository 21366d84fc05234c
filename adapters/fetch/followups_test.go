package fetch_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
)

// hitServer serves routes and counts the requests of each path.
type hitServer struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func newHitServer(t *testing.T, routes map[string]http.HandlerFunc) *hitServer {
	t.Helper()
	s := &hitServer{hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		if h, ok := routes[r.URL.Path]; ok {
			h(w, r)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *hitServer) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// html answers a page whose <head> holds head, with the Link header link
// when not empty; %s in both stands for the server's origin.
func html(origin *string, head, link string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		if link != "" {
			w.Header().Set("Link", strings.ReplaceAll(link, "%s", *origin))
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = fmt.Fprint(w, "<!doctype html><html><head>"+strings.ReplaceAll(head, "%s", *origin)+"</head><body>x</body></html>")
	}
}

func checkOf(a pagecheck.Analysis, id string) pagecheck.Check {
	for _, cs := range a.Results {
		for _, c := range cs {
			if c.ID == id {
				return c
			}
		}
	}
	return pagecheck.Check{}
}

// TestCanonicalIsProbedOnceWithoutFollowingRedirects: the canonical URL a
// page declares (here in its Link header) is requested exactly once, its
// redirect is not followed, and the canonical check reports the redirect; a
// page that is its own canonical costs no request.
func TestCanonicalIsProbedOnceWithoutFollowingRedirects(t *testing.T) {
	var origin string
	srv := newHitServer(t, map[string]http.HandlerFunc{
		"/deep/page": html(&origin, "", "<%s/moved>; rel=\"canonical\""),
		"/moved": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/final", http.StatusMovedPermanently)
		},
		"/final": html(&origin, "", ""),
		"/self":  html(&origin, `<link rel="canonical" href="%s/self">`, ""),
	})
	origin = srv.URL
	f, err := fetch.New(fetch.Config{AllowTargets: []string{hostPort(t, srv.URL)}, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	fd, a := analyse(t, f, srv.URL+"/deep/page")
	if fd.Canonical == nil || fd.Canonical.URL != srv.URL+"/moved" || fd.Canonical.Response == nil || fd.Canonical.Response.Status != 301 {
		t.Fatalf("canonical probe = %+v", fd.Canonical)
	}
	if n, m := srv.count("/moved"), srv.count("/final"); n != 1 || m != 0 {
		t.Errorf("requests: /moved %d (want 1), /final %d (want 0: redirects are not followed)", n, m)
	}
	if c := checkOf(a, "canonical"); c.Passed || strings.Join(c.Errors, ",") != "redirects" || !strings.Contains(c.Message, "/final") {
		t.Errorf("canonical = %v %v %q", c.Passed, c.Errors, c.Message)
	}
	fd, _ = analyse(t, f, srv.URL+"/self")
	if fd.Canonical != nil {
		t.Errorf("a page that is its own canonical was probed: %+v", fd.Canonical)
	}
}

// TestAlternatesFetchedUpToTheCap: of five alternates only the first
// pagecheck.MaxAlternateFetches are requested, once each, without following a
// redirect; the hreflang check reports the one that does not link back and
// the one that redirects.
func TestAlternatesFetchedUpToTheCap(t *testing.T) {
	var origin string
	set := `<link rel="alternate" hreflang="en" href="%s/en">` +
		`<link rel="alternate" hreflang="fr" href="%s/fr"><link rel="alternate" hreflang="de" href="%s/de">` +
		`<link rel="alternate" hreflang="es" href="%s/es"><link rel="alternate" hreflang="it" href="%s/it">` +
		`<link rel="alternate" hreflang="pt" href="%s/pt">`
	srv := newHitServer(t, map[string]http.HandlerFunc{
		"/en": html(&origin, set, ""),
		"/fr": html(&origin, set, ""),                                   // links back
		"/de": html(&origin, "", "<%s/en>; rel=alternate; hreflang=en"), // links back in its header
		"/es": html(&origin, `<link rel="alternate" hreflang="es" href="%s/es">`, ""),
		"/it": func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/it/", http.StatusFound) },
	})
	origin = srv.URL
	f, err := fetch.New(fetch.Config{AllowTargets: []string{hostPort(t, srv.URL)}, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	fd, a := analyse(t, f, srv.URL+"/en")
	if len(fd.Alternates) != pagecheck.MaxAlternateFetches {
		t.Fatalf("%d alternates fetched, want %d", len(fd.Alternates), pagecheck.MaxAlternateFetches)
	}
	for path, want := range map[string]int{"/fr": 1, "/de": 1, "/es": 1, "/it": 0, "/pt": 0} {
		if got := srv.count(path); got != want {
			t.Errorf("%s requested %d times, want %d", path, got, want)
		}
	}
	c := checkOf(a, "hreflang")
	if c.Passed || strings.Join(c.Errors, ",") != "no_return_link" || len(c.Offending) != 1 || !strings.Contains(c.Offending[0], "/es does not link back") {
		t.Errorf("hreflang = %v %v %q %q", c.Passed, c.Errors, c.Message, c.Offending)
	}
}

// TestFollowUpsGoThroughTheGuardAndAdmission: a follow-up is refused like
// the page would be (a private address is never dialled nor admitted), an
// admission refusal leaves it unanswered without failing the fetch, and
// what cannot be verified does not fail a check.
func TestFollowUpsGoThroughTheGuardAndAdmission(t *testing.T) {
	var origin string
	other := newHitServer(t, map[string]http.HandlerFunc{"/de": html(&origin, "", "")})
	denied := "denied.example:" + portOf(t, other.URL)
	srv := newHitServer(t, map[string]http.HandlerFunc{
		"/en": html(&origin, `<link rel="alternate" hreflang="en" href="%s/en">`+
			`<link rel="alternate" hreflang="fr" href="http://metadata.example/latest/meta-data/">`+
			`<link rel="alternate" hreflang="de" href="http://`+denied+`/de">`, ""),
	})
	origin = srv.URL
	f, err := fetch.New(fetch.Config{
		AllowTargets: []string{hostPort(t, srv.URL), denied},
		Resolver: &fakeResolver{addrs: map[string][]netip.Addr{
			"metadata.example": {netip.MustParseAddr("169.254.169.254")},
			"denied.example":   {netip.MustParseAddr("127.0.0.1")},
		}},
		Log: quiet,
	})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{deny: map[string]bool{"denied.example": true}}
	fd, err := f.Fetch(context.Background(), srv.URL+"/en", rec.admit)
	if err != nil {
		t.Fatalf("a refused follow-up failed the fetch: %v", err)
	}
	if len(fd.Alternates) != 2 || fd.Alternates[0].Response != nil || fd.Alternates[1].Response != nil {
		t.Fatalf("alternates = %+v, want two unanswered", fd.Alternates)
	}
	for _, tg := range rec.targets() {
		if tg.Addr == netip.MustParseAddr("169.254.169.254") {
			t.Errorf("the metadata address was put to admit: %+v", tg)
		}
	}
	if !slicesContainsHost(rec.targets(), "denied.example") {
		t.Error("the denied alternate never asked admit")
	}
	if n := other.count("/de"); n != 0 {
		t.Errorf("the denied alternate got %d requests", n)
	}
	a := pagecheck.Analyse(fd, pagecheck.DefaultWeights)
	if c := checkOf(a, "hreflang"); !c.Passed || !strings.Contains(c.Message, "2 could not be verified") {
		t.Errorf("hreflang = %v %v %q", c.Passed, c.Errors, c.Message)
	}
}

func slicesContainsHost(ts []ports.Target, host string) bool {
	return slices.ContainsFunc(ts, func(t ports.Target) bool { return t.Host == host })
}

// portOf is the port of a server URL.
func portOf(t testing.TB, raw string) string {
	t.Helper()
	_, port, err := net.SplitHostPort(hostPort(t, raw))
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// TestFollowUpsStayWithinTheDeadline: an alternate that never answers is
// given up at the fetch's deadline; the page is analysed without it.
func TestFollowUpsStayWithinTheDeadline(t *testing.T) {
	var origin string
	srv := newHitServer(t, map[string]http.HandlerFunc{
		"/en": html(&origin, `<link rel="alternate" hreflang="en" href="%s/en"><link rel="alternate" hreflang="fr" href="%s/fr">`, ""),
		"/fr": func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(time.Minute):
			}
		},
	})
	origin = srv.URL
	f, err := fetch.New(fetch.Config{AllowTargets: []string{hostPort(t, srv.URL)}, Timeout: time.Second, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	fd, err := f.Fetch(context.Background(), srv.URL+"/en", nil)
	if err != nil || fd.Page.Status != 200 {
		t.Fatalf("fetch: %v", err)
	}
	// Ten times the deadline, for a loaded machine; the alternate hangs a
	// minute.
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the fetch took %s with a 1 s deadline", d)
	}
	if len(fd.Alternates) != 1 || fd.Alternates[0].Response != nil {
		t.Errorf("alternates = %+v, want one unanswered", fd.Alternates)
	}
}

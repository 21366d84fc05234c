package crawls_test

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
)

// fakeResolver answers fixed addresses for host names.
type fakeResolver map[string]string

func (f fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := f[host]; ok {
		return []netip.Addr{netip.MustParseAddr(a)}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// TestCrawlRefusesPrivateTargets: a crawl of a public-looking site (its
// subdomains included) whose pages link and redirect to hosts of the
// site that resolve to loopback, link-local and private addresses, and
// to another loopback port, never connects there: the site's server only
// ever gets requests for its own allowed host, the other port none; the
// on-site URLs are recorded as failed with the guard's refusal, the
// off-site ones are not crawled at all.
func TestCrawlRefusesPrivateTargets(t *testing.T) {
	var otherConns atomic.Int32
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Close() })
	go func() {
		for {
			c, err := other.Accept()
			if err != nil {
				return
			}
			otherConns.Add(1)
			_ = c.Close()
		}
	}()
	otherPort := other.Addr().(*net.TCPAddr).Port

	var mu sync.Mutex
	hosts := map[string]int{}
	var port string
	s := newSite(t, func(_ *site, w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hosts[r.Host]++
		mu.Unlock()
		on := func(sub, path string) string { return "http://" + sub + ".site.test:" + port + path }
		switch r.URL.Path {
		case "/":
			page(w, "Home", "/about", on("internal", "/secret"), on("metadata", "/latest/meta-data/"), on("ten", "/x"),
				"/go-internal", "/go-metadata", "/go-other", "http://10.0.0.1/", "http://169.254.169.254/latest/",
				"http://127.0.0.1:"+strconv.Itoa(otherPort)+"/")
		case "/about":
			page(w, "About", "/")
		case "/go-internal":
			http.Redirect(w, r, on("internal", "/redirected"), http.StatusFound)
		case "/go-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		case "/go-other":
			http.Redirect(w, r, "http://127.0.0.1:"+strconv.Itoa(otherPort)+"/", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	})
	port = strings.TrimPrefix(s.URL, "http://127.0.0.1:")
	allowed := "www.site.test:" + port
	portNum, _ := strconv.Atoi(port)
	// The port is allowed on public addresses, so the guard decides by
	// the address each name resolves to.
	e := newEnvFetching(t, crawls.Config{}, fetch.Config{AllowTargets: []string{allowed}, AllowPorts: []int{portNum}, Timeout: 5 * time.Second,
		Resolver: fakeResolver{"www.site.test": "127.0.0.1", "internal.site.test": "127.0.0.1",
			"metadata.site.test": "169.254.169.254", "ten.site.test": "10.0.0.1"}})
	e.start(t)
	c, err := e.crawls.Create(context.Background(), 1, crawl.Params{URL: "http://" + allowed + "/", Subdomains: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := e.waitFinal(t, c.ID, 2*time.Minute)
	if done.Status != crawl.StatusFinished {
		t.Fatalf("crawl = %s %q", done.Status, done.Failure)
	}
	pages, _, err := e.store.Pages(context.Background(), 1, c.ID, ports.PageQuery{SortBy: ports.SortPagesByURL})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]ports.CrawlPage{}
	for _, p := range pages {
		got[p.Page.URL] = p
	}
	on := func(sub, path string) string { return "http://" + sub + ".site.test:" + port + path }
	for _, u := range []string{on("internal", "/secret"), on("metadata", "/latest/meta-data/"), on("ten", "/x"), on("www", "/go-internal")} {
		p, ok := got[u]
		if !ok {
			t.Errorf("%s not recorded", u)
			continue
		}
		if p.Page.Status != 0 || !p.Page.Broken() || !strings.HasPrefix(p.Page.Failure, "refused: not a public address") {
			t.Errorf("%s recorded as status %d, failure %q; want failed, refused by the guard", u, p.Page.Status, p.Page.Failure)
		}
	}
	if p, ok := got[on("www", "/go-internal")]; ok && (len(p.Page.Redirects) != 1 || p.Page.Redirects[0] != on("www", "/go-internal")) {
		t.Errorf("/go-internal redirects = %v, want its one hop", p.Page.Redirects)
	}
	for u := range got {
		if !strings.HasPrefix(u, "http://") || !strings.Contains(u, ".site.test:"+port+"/") {
			t.Errorf("off-site URL %s was crawled", u)
		}
	}
	// The redirects off the site end their chains unfollowed.
	for _, path := range []string{"/go-metadata", "/go-other"} {
		if p := got[on("www", path)]; p.Page.Status != http.StatusFound {
			t.Errorf("%s recorded with status %d, want its 302 alone", path, p.Page.Status)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for h, n := range hosts {
		if h != allowed {
			t.Errorf("the site got %d requests for host %s: the guard let a private target through", n, h)
		}
	}
	if n := otherConns.Load(); n != 0 {
		t.Errorf("%d connections to the other loopback port", n)
	}
	if done.Progress.Failed < 4 {
		t.Errorf("progress %+v, want the 4 refused URLs failed", done.Progress)
	}
}

package render

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// needChromium skips the test when no browser is installed, or fails it
// when PINSIGHT_REQUIRE_CHROMIUM=1 says one must be.
func needChromium(t testing.TB) {
	t.Helper()
	if _, err := findChromium(); err != nil {
		if os.Getenv("PINSIGHT_REQUIRE_CHROMIUM") == "1" {
			t.Fatalf("PINSIGHT_REQUIRE_CHROMIUM=1 but %v", err)
		}
		t.Skip("no chromium binary (apt-get install chromium, or set PINSIGHT_CHROMIUM): rendering tests skipped")
	}
}

// fixtures serves testdata/ on loopback, and the dynamic pages the tests
// need; canary, when not "", is substituted for {{CANARY}} in the pages.
type fixtures struct {
	srv    *httptest.Server
	canary string
	ws     http.HandlerFunc // serves /ws when not nil
}

func newFixtures(t testing.TB) *fixtures {
	t.Helper()
	fx := &fixtures{}
	mux := http.NewServeMux()
	mux.HandleFunc("/slow-image.png", func(w http.ResponseWriter, r *http.Request) {
		d, _ := time.ParseDuration(r.URL.Query().Get("after"))
		select {
		case <-time.After(d):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "image/png")
		http.ServeFile(w, r, "testdata/hero.png")
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done() // never finishes
	})
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		if fx.ws == nil {
			http.NotFound(w, r)
			return
		}
		fx.ws(w, r)
	})
	mux.HandleFunc("/redirect-to-canary", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://"+fx.canary+"/redirected", http.StatusFound)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		name := filepath.Join("testdata", filepath.Clean("/"+r.URL.Path))
		b, err := os.ReadFile(name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		if strings.HasSuffix(name, ".html") {
			_, port, _ := strings.Cut(fx.canary, ":")
			b = []byte(strings.NewReplacer("{{CANARY}}", fx.canary, "{{CANARY_PORT}}", port).Replace(string(b)))
		}
		http.ServeContent(w, r, name, time.Time{}, strings.NewReader(string(b)))
	})
	fx.srv = httptest.NewServer(mux)
	t.Cleanup(fx.srv.Close)
	return fx
}

func (fx *fixtures) url(path string) string { return fx.srv.URL + path }
func (fx *fixtures) host() string           { return strings.TrimPrefix(fx.srv.URL, "http://") }

// canary is a loopback server that is not allowed: it counts what reaches
// it.
type canary struct {
	srv  *httptest.Server
	hits atomic.Int64
	last atomic.Value
}

func newCanary(t testing.TB) *canary {
	c := &canary{}
	c.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.hits.Add(1)
		c.last.Store(r.URL.String())
		w.Write([]byte("canary"))
	}))
	c.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			c.hits.Add(1) // a connection without a request counts too
		}
	}
	c.srv.Start()
	t.Cleanup(c.srv.Close)
	return c
}

func (c *canary) host() string { return strings.TrimPrefix(c.srv.URL, "http://") }

// newTestRenderer is a renderer whose guard allows only allow (host:port).
func newTestRenderer(t testing.TB, cfg Config, allow ...string) *Renderer {
	t.Helper()
	needChromium(t)
	f, err := fetch.New(fetch.Config{AllowTargets: allow})
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(cfg, f)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// render renders u with a generous deadline.
func render(t testing.TB, r *Renderer, u string, admit ports.Admit) (*webpage.Rendered, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	return r.Render(ctx, u, ports.RenderOptions{}, admit)
}

// find returns the first element of tag under n, nil when none.
func find(n *webpage.Node, tag string) *webpage.Node {
	if n == nil {
		return nil
	}
	if n.Type == webpage.ElementNode && n.Tag == tag {
		return n
	}
	for _, c := range n.Children {
		if f := find(c, tag); f != nil {
			return f
		}
	}
	return nil
}

// all returns every element of tag under n.
func all(n *webpage.Node, tag string) []*webpage.Node {
	var out []*webpage.Node
	var walk func(*webpage.Node)
	walk = func(n *webpage.Node) {
		if n.Type == webpage.ElementNode && n.Tag == tag {
			out = append(out, n)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	if n != nil {
		walk(n)
	}
	return out
}

// textOf is the text under n.
func textOf(n *webpage.Node) string {
	var b strings.Builder
	var walk func(*webpage.Node)
	walk = func(n *webpage.Node) {
		if n.Type == webpage.TextNode {
			b.WriteString(n.Text)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	if n != nil {
		walk(n)
	}
	return b.String()
}

func attr(n *webpage.Node, key string) string {
	for _, a := range n.Attrs {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

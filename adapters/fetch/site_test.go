package fetch_test

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/pinsight/pinsight/adapters/fetch"
)

// fixtureSite is the test web: a well-built HTTPS site and a poor HTTP one,
// both reached through the fetcher's exact host:port allow-list (the SSRF
// guard stays on).
type fixtureSite struct {
	good, poor *httptest.Server
	fetcher    *fetch.Fetcher
}

// goodHeaders are the security headers of the well-built site.
var goodHeaders = map[string]string{
	"Strict-Transport-Security": "max-age=31536000; includeSubDomains",
	"Content-Security-Policy":   "default-src 'self'",
	"X-Content-Type-Options":    "nosniff",
}

// prose is about 600 words of body text using the good page's title words.
func prose() string {
	sentences := []string{
		"A good garden starts with tools that fit the hand and the soil.",
		"This guide compares spades, rakes and shears for small gardens and large ones.",
		"Stainless steel blades resist rust, while ash handles absorb the shock of digging.",
		"Look after your tools: clean them after use, oil the joints and keep the edges sharp.",
		"Cheap garden tools bend in clay; a forged head lasts for decades of seasons.",
	}
	var b strings.Builder
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&b, "<h2>Part %d</h2>\n<p>%s</p>\n", i+1, strings.Join(sentences, " "))
	}
	return b.String()
}

// filler is the poor page's bulk: many links, legacy images and empty
// elements, little text.
func filler() string {
	var b strings.Builder
	for i := 0; i < 151; i++ {
		fmt.Fprintf(&b, `<a href="/p/%d">.</a>`, i)
	}
	for i := 0; i < 51; i++ {
		fmt.Fprintf(&b, `<img src="/i/%d.png" alt="">`, i)
	}
	for i := 0; i < 1600; i++ {
		b.WriteString("<span></span>")
	}
	return b.String()
}

func readFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func compress(t testing.TB, coding string, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w interface {
		Write([]byte) (int, error)
		Close() error
	}
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "br":
		w = brotli.NewWriter(&buf)
	case "deflate":
		w = zlib.NewWriter(&buf)
	}
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// newFixtureSite starts both servers and a fetcher allowed to reach exactly
// them.
func newFixtureSite(t *testing.T, cfg fetch.Config) *fixtureSite {
	t.Helper()
	s := &fixtureSite{}
	goodPage := readFixture(t, "good.html")
	goodRobots := readFixture(t, "robots_good.txt")
	poorPage := strings.Replace(readFixture(t, "poor.html"), "{{filler}}", filler(), 1)

	good := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request, coding string) {
		body := []byte(strings.NewReplacer("{{origin}}", s.good.URL, "{{prose}}", prose()).Replace(goodPage))
		for k, v := range goodHeaders {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if coding != "" {
			w.Header().Set("Content-Encoding", coding)
			body = compress(t, coding, body)
		}
		_, _ = w.Write(body)
	}
	good.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { page(w, r, "gzip") })
	good.HandleFunc("GET /private/page", func(w http.ResponseWriter, r *http.Request) { page(w, r, "gzip") })
	good.HandleFunc("GET /private/open", func(w http.ResponseWriter, r *http.Request) { page(w, r, "gzip") })
	good.HandleFunc("GET /br", func(w http.ResponseWriter, r *http.Request) { page(w, r, "br") })
	good.HandleFunc("GET /deflate", func(w http.ResponseWriter, r *http.Request) { page(w, r, "deflate") })
	good.HandleFunc("GET /plain", func(w http.ResponseWriter, r *http.Request) { page(w, r, "") })
	good.HandleFunc("GET /robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(strings.ReplaceAll(goodRobots, "{{origin}}", s.good.URL)))
	})
	for _, hop := range [][2]string{{"/r1", "/r2"}, {"/r2", "r3"}, {"/r3", "/"}} {
		good.Handle("GET "+hop[0], http.RedirectHandler(hop[1], http.StatusFound))
	}
	good.HandleFunc("GET /hop/{n}", func(w http.ResponseWriter, r *http.Request) {
		var n int
		_, _ = fmt.Sscan(r.PathValue("n"), &n)
		if n == 0 {
			page(w, r, "gzip")
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusMovedPermanently)
	})
	good.HandleFunc("GET /long-redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/?"+strings.Repeat("q", 2048), http.StatusFound)
	})
	good.HandleFunc("GET /mixed", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Strict-Transport-Security", "max-age=600")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = fmt.Fprint(w, `<!doctype html><html><head><title>Mixed</title><script src="http://cdn.example/app.js" defer></script></head>`+
			`<body><img src="http://img.example/a.webp" alt="a"><img src="//img.example/b.webp" alt="b"></body></html>`)
	})
	s.good = httptest.NewUnstartedServer(good)
	s.good.Config.ErrorLog = log.New(io.Discard, "", 0) // handshakes cut by Close are expected
	s.good.StartTLS()
	t.Cleanup(s.good.Close)

	s.poor = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html") // no charset: the page declares none either
		w.Header().Set("Server", "Apache/2.4.1 (Unix)")
		w.Header().Set("X-Powered-By", "PHP/8.1.2")
		switch r.URL.Path {
		case "/robots.txt":
			_, _ = w.Write([]byte(readFixture(t, "robots_poor.txt")))
			return
		case "/latin1":
			w.Header().Set("Content-Type", "text/html; charset=ISO-8859-1")
			_, _ = w.Write([]byte("<html><head><title>Caf\xe9 cr\xe8me br\xfbl\xe9e</title></head><body><p>Cr\xe8me br\xfbl\xe9e, \xe0 la carte.</p></body></html>"))
			return
		case "/latin1-meta":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<html><head><meta charset=\"iso-8859-1\"><title>Na\xefve caf\xe9</title></head><body></body></html>"))
			return
		case "/huge":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte("<!doctype html><html><head><title>Huge</title></head><body>"))
			chunk := []byte(strings.Repeat("<p>ééé huge page text</p>\n", 1024))
			for sent := 0; sent < 6<<20; sent += len(chunk) {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
			return
		case "/slow":
			time.Sleep(2100 * time.Millisecond)
		case "/hang":
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
			return
		case "/error":
			w.WriteHeader(http.StatusInternalServerError)
		}
		_, _ = w.Write([]byte(poorPage))
	}))
	t.Cleanup(s.poor.Close)

	cfg.AllowTargets = append(cfg.AllowTargets, hostPort(t, s.good.URL), hostPort(t, s.poor.URL))
	cfg.TLS = s.good.Client().Transport.(*http.Transport).TLSClientConfig
	f, err := fetch.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.fetcher = f
	return s
}

func hostPort(t testing.TB, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

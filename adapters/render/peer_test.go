package render

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestProxyServesOnlyItsBrowser: a render's proxy drops a client that is
// not a process of its browser (this test), before reading a request.
func TestProxyServesOnlyItsBrowser(t *testing.T) {
	fx := newFixtures(t)
	r := newTestRenderer(t, Config{}, fx.host())
	b, err := r.browserNow()
	if err != nil {
		t.Fatal(err)
	}
	px, err := newProxy(context.Background(), r.guard, nil, b.fromBrowser)
	if err != nil {
		t.Fatal(err)
	}
	defer px.close()
	conn, err := net.Dial("tcp", px.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	req, _ := http.NewRequest("GET", fx.url("/spa.html"), nil)
	_ = req.WriteProxy(conn)
	if res, err := http.ReadResponse(bufio.NewReader(conn), req); err == nil {
		t.Fatalf("a client outside the browser got %s from the proxy", res.Status)
	}
	// The browser itself is served (the render goes through the same check).
	if _, err := render(t, r, fx.url("/spa.html"), nil); err != nil {
		t.Fatal(err)
	}
}

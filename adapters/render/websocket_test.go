package render

import (
	"crypto/sha1"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
)

// TestAllowedWebsocketIsTunnelled: a websocket to the allowed server goes
// through the proxy's tunnel and works.
func TestAllowedWebsocketIsTunnelled(t *testing.T) {
	fx := newFixtures(t)
	fx.ws = serveHello
	r := newTestRenderer(t, Config{}, fx.host())
	got, err := render(t, r, fx.url("/websocket.html"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if title := textOf(find(got.Document, "title")); title != "Websocket open" {
		t.Errorf("title %q, want the websocket open", title)
	}
	var ws bool
	for _, q := range got.Requests {
		ws = ws || (q.Type == "websocket" && q.Status == 101 && !q.Refused)
	}
	if !ws || !strings.Contains(textOf(find(got.Document, "body")), "got hello") {
		t.Errorf("requests %+v: want the websocket, switched, and its message", got.Requests)
	}
}

// serveHello accepts a websocket (RFC 6455's handshake), sends one text
// frame "hello" and keeps the connection until the client goes.
func serveHello(w http.ResponseWriter, r *http.Request) {
	sum := sha1.Sum([]byte(r.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	buf.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Accept: " + base64.StdEncoding.EncodeToString(sum[:]) + "\r\n\r\n")
	buf.Write([]byte{0x81, 5})
	buf.WriteString("hello")
	buf.Flush()
	b := make([]byte, 512)
	for {
		if _, err := conn.Read(b); err != nil {
			return
		}
	}
}

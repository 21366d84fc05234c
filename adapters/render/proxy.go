package render

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"strings"
	"sync"
	"time"

	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// proxy is the HTTP forward proxy of one render, on a random loopback
// port: the browser context of the render uses it for every request
// (loopback included), and it opens every upstream connection through the
// guard (Guard.Dial, with the render's admit), after the guard's URL
// check. A plain request is forwarded; a CONNECT (https, websockets) is
// tunnelled. What it refuses never reaches the network: it is recorded,
// and the browser gets a 403 or a failed tunnel.
//
// A proxy made ahead of its render (with its browser context, see tab)
// refuses everything until bind gives it the render's context and admit;
// unbind ends the render: from then on it refuses everything, unrecorded,
// without a dial, but keeps its port until close, so no other render's
// proxy can take the port while the browser context may still use it.
type proxy struct {
	guard  Guard
	ln     net.Listener
	srv    *http.Server
	tr     *http.Transport
	accept func(net.Conn) bool // nil: every loopback client

	mu       sync.Mutex
	admit    ports.Admit
	ctx      context.Context // the render's: every upstream dial is bounded by it
	refusals []refusal
	tunnels  map[net.Conn]bool
	closed   bool
	unbound  bool // the render ended
}

// refusal is one request the proxy refused.
type refusal struct {
	// target is the URL of a plain request, or the host:port of a CONNECT.
	target string
	reason string
	// admission is admit's own error (nil for the guard's refusals).
	admission error
}

// refuseAll is the admit of the browser's default proxy: no request
// outside a render's browser context goes anywhere.
func refuseAll(context.Context, ports.Target) error {
	return errors.New("the browser's own traffic is not let out")
}

// newProxy listens on 127.0.0.1 (a random port) and serves until close.
func newProxy(ctx context.Context, g Guard, admit ports.Admit, accept func(net.Conn) bool) (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &proxy{guard: g, admit: admit, ctx: ctx, ln: ln, accept: accept, tunnels: map[net.Conn]bool{}}
	p.tr = &http.Transport{
		Proxy:                  nil,
		DialContext:            p.dial,
		DisableCompression:     true, // the body goes to the browser as it came
		TLSHandshakeTimeout:    10 * time.Second,
		MaxResponseHeaderBytes: 256 << 10,
		MaxIdleConnsPerHost:    6,
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL = pr.In.URL // absolute: this is a forward proxy
			pr.Out.Host = pr.In.Host
			pr.Out.Header.Del("Proxy-Authorization")
		},
		Transport:     p.tr,
		FlushInterval: -1,
		ErrorHandler:  p.failed,
	}
	p.srv = &http.Server{
		Handler:           p.handler(rp),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(io.Discard, "", 0), // a browser dropping a connection is no news
	}
	go func() { _ = p.srv.Serve(&filteredListener{Listener: ln, accept: accept}) }()
	return p, nil
}

// url is the proxy's address as the browser is given it.
func (p *proxy) url() string { return "http://" + p.ln.Addr().String() }

// bind gives the proxy its render: ctx bounds every upstream dial, admit
// is asked before each; the refusals so far (none, before a navigation)
// are forgotten.
func (p *proxy) bind(ctx context.Context, admit ports.Admit) {
	p.mu.Lock()
	p.ctx, p.admit, p.refusals = ctx, admit, nil
	p.mu.Unlock()
}

// unbind ends the render: every later request is refused without a dial
// and unrecorded, the tunnels are closed and the upstream connections
// kept alive are dropped; the port stays taken until close.
func (p *proxy) unbind() {
	p.mu.Lock()
	p.unbound = true
	p.admit = refuseAll
	tunnels := p.tunnels
	p.tunnels = map[net.Conn]bool{}
	p.mu.Unlock()
	for c := range tunnels {
		c.Close()
	}
	p.tr.CloseIdleConnections()
}

func (p *proxy) ended() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.unbound || p.closed
}

func (p *proxy) handler(rp *httputil.ReverseProxy) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.ended() {
			w.Header().Set("Connection", "close")
			http.Error(w, "refused by Pinsight: the render ended", http.StatusForbidden)
			return
		}
		if r.Method == http.MethodConnect {
			p.tunnel(w, r)
			return
		}
		if !r.URL.IsAbs() {
			http.Error(w, "a forward proxy: absolute URLs only", http.StatusBadRequest)
			return
		}
		target := r.URL.String()
		if err := p.guard.CheckURL(target); err != nil {
			p.refuse(w, target, err)
			return
		}
		rp.ServeHTTP(w, r)
	})
}

// dial is the transport's: through the guard, with the render's admit.
func (p *proxy) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	p.mu.Lock()
	rctx, admit, ended := p.ctx, p.admit, p.unbound || p.closed
	p.mu.Unlock()
	if ended {
		return nil, context.Canceled // not a refusal: nothing to record
	}
	ctx, cancel := mergeCancel(ctx, rctx)
	defer cancel()
	return p.guard.Dial(ctx, network, addr, admit)
}

// failed answers a plain request whose upstream failed: a guard's refusal
// (found when dialling, such as a name resolving to a refused address) or
// admit's error is recorded as a refusal; anything else is a 502.
func (p *proxy) failed(w http.ResponseWriter, r *http.Request, err error) {
	if isRefusal(err) {
		p.refuse(w, r.URL.String(), err)
		return
	}
	http.Error(w, "upstream failed", http.StatusBadGateway)
}

// tunnel serves a CONNECT: the target's host:port is checked, dialled
// through the guard and joined to the browser's connection.
func (p *proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	hp := r.Host
	if err := p.guard.CheckHostPort(hp); err != nil {
		p.refuse(w, hp, err)
		return
	}
	up, err := p.dial(r.Context(), "tcp", hp)
	if err != nil {
		if isRefusal(err) {
			p.refuse(w, hp, err)
			return
		}
		http.Error(w, "upstream failed", http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "no tunnel", http.StatusInternalServerError)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	if !p.track(up, down) {
		up.Close()
		down.Close()
		return
	}
	defer p.untrack(up, down)
	if _, err := down.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n")); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	go func() {
		if n := buf.Reader.Buffered(); n > 0 { // bytes the browser sent after the CONNECT
			b, _ := buf.Reader.Peek(n)
			_, _ = up.Write(b)
		}
		_, _ = io.Copy(up, down)
		closeWrite(up)
		done <- struct{}{}
	}()
	go func() {
		_, _ = io.Copy(down, up)
		closeWrite(down)
		done <- struct{}{}
	}()
	<-done
	<-done
}

// refuse records the refusal of target and answers 403.
func (p *proxy) refuse(w http.ResponseWriter, target string, err error) {
	rf := refusal{target: target, reason: err.Error()}
	var fe *webpage.FetchError
	if errors.As(err, &fe) {
		rf.reason = fe.Reason
	} else {
		rf.admission = err
	}
	p.mu.Lock()
	if len(p.refusals) < maxRefusals {
		p.refusals = append(p.refusals, rf)
	}
	p.mu.Unlock()
	w.Header().Set("Connection", "close")
	http.Error(w, "refused by Pinsight: "+rf.reason, http.StatusForbidden)
}

// maxRefusals bounds what one render records of its refusals.
const maxRefusals = 1000

// isRefusal reports whether err is the guard's refusal or admit's error
// (anything Dial returns that is not a plain failure to connect).
func isRefusal(err error) bool {
	var fe *webpage.FetchError
	if errors.As(err, &fe) {
		return fe.Refused
	}
	return err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// refused returns a copy of the refusals so far.
func (p *proxy) refused() []refusal {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]refusal(nil), p.refusals...)
}

func (p *proxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.unbound {
		return false
	}
	for _, c := range conns {
		p.tunnels[c] = true
	}
	return true
}

func (p *proxy) untrack(conns ...net.Conn) {
	p.mu.Lock()
	for _, c := range conns {
		delete(p.tunnels, c)
	}
	p.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

// close stops listening and closes every connection, tunnels included.
func (p *proxy) close() {
	p.mu.Lock()
	p.closed = true
	tunnels := p.tunnels
	p.tunnels = map[net.Conn]bool{}
	p.mu.Unlock()
	_ = p.srv.Close()
	for c := range tunnels {
		c.Close()
	}
	p.tr.CloseIdleConnections()
}

// filteredListener drops, at accept, the clients accept refuses.
type filteredListener struct {
	net.Listener
	accept func(net.Conn) bool
}

func (l *filteredListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil || l.accept == nil || l.accept(c) {
			return c, err
		}
		c.Close()
	}
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
		return
	}
	c.Close()
}

// mergeCancel is ctx, cancelled too when other ends.
func mergeCancel(ctx, other context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(other, cancel)
	return ctx, func() { stop(); cancel() }
}

// hostPortOf is the host:port a request URL connects to, lower case.
func hostPortOf(rawURL string) string {
	i := strings.Index(rawURL, "://")
	if i < 0 {
		return ""
	}
	scheme, rest := strings.ToLower(rawURL[:i]), rawURL[i+3:]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		rest = rest[:j]
	}
	if j := strings.LastIndex(rest, "@"); j >= 0 {
		rest = rest[j+1:]
	}
	if _, _, err := net.SplitHostPort(rest); err == nil {
		return strings.ToLower(rest)
	}
	port := "80"
	if scheme == "https" || scheme == "wss" {
		port = "443"
	}
	return strings.ToLower(net.JoinHostPort(strings.Trim(rest, "[]"), port))
}

package httpapi

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/app/health"
)

// TestSlowFormBodyReleasesSlot: a form body that stalls is cut at the
// operation's body read timeout (408), as huma cuts JSON bodies, so it
// holds a concurrency slot no longer than that, not the server's
// ReadTimeout (30 s here).
func TestSlowFormBodyReleasesSlot(t *testing.T) {
	mux := http.NewServeMux()
	api := NewAPI(mux)
	Register(api, Routes{Health: health.New(nil)})
	type input struct {
		Body struct {
			A string `json:"a"`
		}
	}
	registerForm(group(api), huma.Operation{
		OperationID: "slow-form", Method: http.MethodPost, Path: "/slow-form", BodyReadTimeout: 300 * time.Millisecond,
	}, func(_ context.Context, in *input) (*reply[string], error) { return ok(in.Body.A), nil })
	h := middleware.NewHandler(mux, middleware.Options{Limits: middleware.RequestLimits{MaxConcurrent: 1}})
	srv := NewServer(Config{Addr: "127.0.0.1:0", ReadTimeout: 30 * time.Second}, h, slog.New(slog.DiscardHandler))
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Stop(ctx)
	})

	conn, err := net.Dial("tcp", srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, "POST /api/v1/slow-form HTTP/1.1\r\nHost: test\r\n"+
		"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\na=")
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // the test's own guard, far above 300 ms
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("stalled form body: no answer: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("stalled form body = %d, want 408", resp.StatusCode)
	}
	res, err := http.Get("http://" + srv.Addr() + "/api/v1/digipin/info")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("next request = %d, want 200 (the slot released)", res.StatusCode)
	}
}

// TestRefusedSlowBodyAnsweredAtOnce: a request refused before its body is
// read (here an unknown route) is answered at once with Connection: close,
// not after net/http has waited for the rest of a stalled body (the
// server's ReadTimeout, 30 s here).
func TestRefusedSlowBodyAnsweredAtOnce(t *testing.T) {
	mux := http.NewServeMux()
	Register(NewAPI(mux), Routes{Health: health.New(nil)})
	srv := NewServer(Config{Addr: "127.0.0.1:0", ReadTimeout: 30 * time.Second}, middleware.NewHandler(mux, middleware.Options{}), slog.New(slog.DiscardHandler))
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Stop(ctx)
	})
	conn, err := net.Dial("tcp", srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, "POST /api/v1/nowhere HTTP/1.1\r\nHost: test\r\n"+
		"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // the test's guard, far below 30 s
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("refused request with a stalled body: no answer: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || !resp.Close {
		t.Errorf("refused request with a stalled body = %d, close %v; want 404 closing the connection", resp.StatusCode, resp.Close)
	}
}

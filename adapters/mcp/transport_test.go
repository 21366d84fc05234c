package mcp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pinsight/pinsight/adapters/mcp"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/ports"
)

// bearer adds an Authorization header to every request.
type bearer struct{ key string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

// connectHTTP connects a client to srv, sending key ("" none).
func connectHTTP(t *testing.T, url, key string) (*sdk.ClientSession, error) {
	t.Helper()
	tr := &sdk.StreamableClientTransport{Endpoint: url}
	if key != "" {
		tr.HTTPClient = &http.Client{Transport: bearer{key}}
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

// TestHandlerKeys: over streamable HTTP, a request's Bearer key reaches
// the tools; without one only the public tools answer; a refused key is
// refused at the door.
func TestHandlerKeys(t *testing.T) {
	f := newFixture(t)
	o := f.options("")
	srv := httptest.NewServer(mcp.Handler(mcp.New(o), mcp.HTTPOptions{Authenticate: o.Authenticate}))
	t.Cleanup(srv.Close)

	cs, err := connectHTTP(t, srv.URL, f.key)
	if err != nil {
		t.Fatal(err)
	}
	tools := listTools(t, cs)
	mustSucceed(t, cs, tools, "analyse_url", map[string]any{"url": "https://example.com/http"}, nil)
	mustSucceed(t, cs, tools, "pincode_lookup", map[string]any{"pincode": "110001"}, nil)

	anon, err := connectHTTP(t, srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	mustSucceed(t, anon, tools, "pincode_lookup", map[string]any{"pincode": "110001"}, nil)
	mustFail(t, anon, "list_reports", nil, "unauthorized")

	if _, err := connectHTTP(t, srv.URL, "wrong-key"); err == nil || !strings.Contains(err.Error(), "401") && !strings.Contains(strings.ToLower(err.Error()), "unauthorized") {
		t.Errorf("a refused key connected: %v", err)
	}
}

// TestHandlerKeyUncheckable: a key that cannot be checked now (the
// accounts' store down) is 503 with Retry-After in the API's envelope,
// never a 500.
func TestHandlerKeyUncheckable(t *testing.T) {
	f := newFixture(t)
	o := f.options("")
	o.Authenticate = func(context.Context, string) (account.User, error) {
		return account.User{}, fmt.Errorf("%w: verify key: connection refused", ports.ErrUnavailable)
	}
	srv := httptest.NewServer(mcp.Handler(mcp.New(o), mcp.HTTPOptions{Authenticate: o.Authenticate}))
	t.Cleanup(srv.Close)
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Authorization", "Bearer some-key")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" ||
		!strings.Contains(string(body), `"success":false`) || strings.Contains(string(body), "connection refused") {
		t.Errorf("an uncheckable key = %d (Retry-After %q) %s; want 503 with Retry-After, the envelope, no cause",
			res.StatusCode, res.Header.Get("Retry-After"), body)
	}
}

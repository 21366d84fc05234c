package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pinsight/pinsight/adapters/mcp"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// envelope is the API's error body.
type envelope struct {
	Success *bool  `json:"success"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// post sends body to url as an MCP client would (no protocol version
// header: batches are allowed), with the headers given as name, value
// pairs; it returns the answer and its body.
func post(t *testing.T, url, body string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

// mustEnvelope decodes an error envelope of status from res, failing the
// test otherwise.
func mustEnvelope(t *testing.T, what string, res *http.Response, body []byte, status int) envelope {
	t.Helper()
	var e envelope
	if res.StatusCode != status || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") ||
		json.Unmarshal(body, &e) != nil || e.Success == nil || *e.Success || e.Code == "" || e.Message == "" {
		t.Fatalf("%s = %d %s %.300q; want %d in the error envelope", what, res.StatusCode, res.Header.Get("Content-Type"), body, status)
	}
	return e
}

// batch is a JSON-RPC batch of n pincode lookups.
func batch(n int) string {
	calls := make([]string, n)
	for i := range calls {
		calls[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"pincode_lookup","arguments":{"pincode":"110001"}}}`, i+1)
	}
	return "[" + strings.Join(calls, ",") + "]"
}

// edge is a host's edge as the API's middleware is: one request charged
// per POST against limit, 429 beyond, and Charge for more.
type edge struct {
	lim   *memory.RateLimiter
	limit ratelimit.Limit
}

func (e edge) charge(ctx context.Context, n int) ratelimit.Decision {
	d, err := e.lim.TakeN(ctx, "client", e.limit, n)
	if err != nil {
		return ratelimit.Decision{Limit: e.limit.Requests, RetryAfter: e.limit.Window}
	}
	return d
}

func (e edge) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d := e.charge(r.Context(), 1); !d.Allowed {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"success":false,"code":"rate_limited","message":"rate limit exceeded"}`))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// TestBatchCharged: every call of a JSON-RPC batch counts against the
// quota, so batches under a 20/min quota answer at most 20 calls; a batch
// beyond the stated size is refused whole in the envelope, uncharged.
func TestBatchCharged(t *testing.T) {
	f := newFixture(t)
	o := f.options("")
	e := edge{lim: memory.NewRateLimiter(), limit: ratelimit.Limit{Requests: 25, Window: time.Minute}}
	srv := httptest.NewServer(e.wrap(mcp.Handler(mcp.New(o), mcp.HTTPOptions{Authenticate: o.Authenticate, Charge: e.charge})))
	t.Cleanup(srv.Close)

	res, body := post(t, srv.URL, batch(10+1))
	msg := mustEnvelope(t, "a batch beyond the cap", res, body, http.StatusBadRequest).Message
	if !strings.Contains(msg, strconv.Itoa(10)) {
		t.Errorf("the refusal does not state the cap: %q", msg)
	}
	res, body = post(t, srv.URL, batch(300))
	mustEnvelope(t, "a batch of 300", res, body, http.StatusBadRequest)

	// Two requests charged so far; batches of 10 then fit twice in 25.
	answered, refused := 0, false
	for range 30 {
		res, body := post(t, srv.URL, batch(10))
		if res.StatusCode == http.StatusTooManyRequests {
			mustEnvelope(t, "a batch beyond the quota", res, body, http.StatusTooManyRequests)
			if res.Header.Get("Retry-After") == "" {
				t.Errorf("429 without Retry-After: %s", body)
			}
			refused = true
			break
		}
		var out []json.RawMessage
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &out) != nil {
			t.Fatalf("a batch = %d %.300s", res.StatusCode, body)
		}
		answered += len(out)
	}
	if !refused || answered != 20 {
		t.Errorf("batches of %d answered %d calls under a quota of 25 (refused: %v), want 20 then 429",
			10, answered, refused)
	}
}

// TestBatchDeadline: a request whose calls outlast the deadline is
// answered with errors (the calls' own, or the envelope's 503), soon
// after the deadline, never 200 with nothing.
func TestBatchDeadline(t *testing.T) {
	f := newFixture(t)
	o := f.options("")
	s := mcp.New(o)
	s.AddTool(&sdk.Tool{Name: "slow", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			select {
			case <-ctx.Done():
				return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "cancelled"}}}, nil
			case <-time.After(5 * time.Second):
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "late"}}}, nil
		})
	srv := httptest.NewServer(mcp.Handler(s, mcp.HTTPOptions{Authenticate: o.Authenticate, Deadline: 300 * time.Millisecond}))
	t.Cleanup(srv.Close)
	slow := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"slow","arguments":{}}}`
	lookup := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"pincode_lookup","arguments":{"pincode":"110001"}}}`
	for _, body := range []string{
		fmt.Sprintf(slow, 1),
		"[" + fmt.Sprintf(slow, 1) + "," + fmt.Sprintf(slow, 2) + "]",
		"[" + fmt.Sprintf(slow, 1) + "," + fmt.Sprintf(lookup, 2) + "," + fmt.Sprintf(slow, 3) + "]",
	} {
		start := time.Now()
		res, b := post(t, srv.URL, body)
		if d := time.Since(start); d > 4*time.Second {
			t.Errorf("answered after %s, well past the deadline", d)
		}
		if res.StatusCode != http.StatusOK {
			e := mustEnvelope(t, "a request past its deadline", res, b, http.StatusServiceUnavailable)
			if !strings.Contains(e.Message, "0.3 s") {
				t.Errorf("the error does not state the deadline: %q", e.Message)
			}
			continue
		}
		var out []struct {
			Result struct {
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if strings.HasPrefix(body, "[") {
			_ = json.Unmarshal(b, &out)
		} else {
			out = make([]struct {
				Result struct {
					IsError bool `json:"isError"`
				} `json:"result"`
			}, 1)
			_ = json.Unmarshal(b, &out[0])
		}
		if len(out) != strings.Count(body, `"id"`) {
			t.Fatalf("a request past its deadline = 200 %.300q: want an answer per call", b)
		}
		if !out[0].Result.IsError {
			t.Errorf("a slow call past its deadline succeeded: %.300q", b)
		}
	}
}

// TestHandlerOrigin: a browser request from another origin than the
// server's own and the allowed ones is 403 in the envelope; requests
// without Origin (assistants, scripts), same-origin and allowed ones pass.
func TestHandlerOrigin(t *testing.T) {
	f := newFixture(t)
	o := f.options("")
	srv := httptest.NewServer(mcp.Handler(mcp.New(o), mcp.HTTPOptions{Authenticate: o.Authenticate, Origins: []string{"https://app.example"}}))
	t.Cleanup(srv.Close)
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`

	for _, origin := range []string{"https://evil.example", "null", "http://" + strings.TrimPrefix(srv.URL, "http://") + ".evil.example"} {
		res, body := post(t, srv.URL, list, "Origin", origin)
		mustEnvelope(t, "Origin "+origin, res, body, http.StatusForbidden)
	}
	for _, origin := range []string{"", srv.URL, "https://app.example"} {
		res, body := post(t, srv.URL, list, "Origin", origin)
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "pincode_lookup") {
			t.Errorf("Origin %q = %d %.200s, want 200 with the tools", origin, res.StatusCode, body)
		}
	}
}

// TestHandlerBadKey: a refused or malformed key is 401 in the API's
// envelope with a Bearer challenge, as on the HTTP API, never text/plain.
func TestHandlerBadKey(t *testing.T) {
	f := newFixture(t)
	o := f.options("")
	srv := httptest.NewServer(mcp.Handler(mcp.New(o), mcp.HTTPOptions{Authenticate: o.Authenticate}))
	t.Cleanup(srv.Close)
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for _, h := range []string{"Bearer wrong-key", "Basic d3Jvbmc6a2V5", "Bearer "} {
		res, body := post(t, srv.URL, list, "Authorization", h)
		if e := mustEnvelope(t, "Authorization "+h, res, body, http.StatusUnauthorized); e.Code != "unauthorized" {
			t.Errorf("Authorization %q: code %q, want unauthorized", h, e.Code)
		}
		if !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("Authorization %q: no Bearer challenge", h)
		}
	}
	res, body := post(t, srv.URL, list, "Authorization", "Bearer "+f.key)
	if res.StatusCode != http.StatusOK {
		t.Errorf("a valid key = %d %.200s", res.StatusCode, body)
	}
}

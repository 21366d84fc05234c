package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPOverStdio builds the binary and drives `pinsight mcp` as an
// assistant does, over stdio: initialize, tools/list and a pincode lookup,
// whose offices must be the ones `pinsight serve --mcp` answers at
// /api/v1/pincodes/110001 and at /mcp, behind the API's edge.
func TestMCPOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("links the whole command")
	}
	bin := filepath.Join(t.TempDir(), "pinsight")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: exec.Command(bin, "mcp", "--database-url", "memory:")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cs.Close() }()
	if init := cs.InitializeResult(); init.ServerInfo.Name != "pinsight" || init.Capabilities.Tools == nil {
		t.Fatalf("initialize = %+v", init)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 17 {
		t.Errorf("tools/list: %d tools, want 17", len(tools.Tools))
	}
	overStdio := lookup(ctx, t, cs)

	addr := freeAddr(t)
	serve := exec.CommandContext(ctx, bin, "serve", "--mcp", "--addr", addr, "--database-url", "memory:", "--log-level", "error")
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = serve.Process.Kill(); _ = serve.Wait() }()
	base := "http://" + addr
	waitReady(ctx, t, base+"/readyz")

	res, err := http.Get(base + "/api/v1/pincodes/110001")
	if err != nil {
		t.Fatal(err)
	}
	var api struct {
		Data struct {
			PostOffices []map[string]any `json:"post_offices"`
		} `json:"data"`
	}
	err = json.NewDecoder(res.Body).Decode(&api)
	_ = res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(api.Data.PostOffices) == 0 || !reflect.DeepEqual(overStdio, api.Data.PostOffices) {
		t.Fatalf("offices over stdio (%d) differ from the HTTP API's (%d):\n%v\n%v", len(overStdio), len(api.Data.PostOffices), overStdio, api.Data.PostOffices)
	}

	// serve --mcp: the same answer at /mcp, through the edge (rate limit headers).
	var limited string
	hc := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		res, err := http.DefaultTransport.RoundTrip(r)
		if err == nil && limited == "" {
			limited = res.Header.Get("RateLimit-Limit")
		}
		return res, err
	})}
	hs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = hs.Close() }()
	if overHTTP := lookup(ctx, t, hs); !reflect.DeepEqual(overHTTP, overStdio) {
		t.Errorf("offices at /mcp differ from stdio's")
	}
	if limited == "" {
		t.Error("/mcp answered without RateLimit-Limit: not behind the edge")
	}
	edgeRules(t, base+"/mcp")
}

// edgeRules checks the rules serve --mcp adds at url: a batch's messages
// are each charged to the quota, one beyond the cap is refused, and so is
// another site's browser page, all in the error envelope.
func edgeRules(t *testing.T, url string) {
	t.Helper()
	call := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"pincode_lookup","arguments":{"pincode":"110001"}}}`
	batch := func(n int) string {
		calls := make([]string, n)
		for i := range calls {
			calls[i] = fmt.Sprintf(call, i+1)
		}
		return "[" + strings.Join(calls, ",") + "]"
	}
	send := func(body string, headers ...string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
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
		return res, string(b)
	}
	res, _ := send(fmt.Sprintf(call, 1))
	before, _ := strconv.Atoi(res.Header.Get("RateLimit-Remaining"))
	res, body := send(batch(10))
	after, _ := strconv.Atoi(res.Header.Get("RateLimit-Remaining"))
	if res.StatusCode != http.StatusOK || before-after != 10 {
		t.Errorf("a batch of 10 = %d, quota left %d then %d: want 200 and 10 charged (%.200s)", res.StatusCode, before, after, body)
	}
	if res, body := send(batch(11)); res.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"success":false`) {
		t.Errorf("a batch of 11 = %d %.200s, want 400 in the envelope", res.StatusCode, body)
	}
	if res, body := send(fmt.Sprintf(call, 1), "Origin", "https://evil.example"); res.StatusCode != http.StatusForbidden || !strings.Contains(body, `"success":false`) {
		t.Errorf("another site's page = %d %.200s, want 403 in the envelope", res.StatusCode, body)
	}
}

// lookup calls pincode_lookup for 110001 and returns its offices.
func lookup(ctx context.Context, t *testing.T, cs *sdk.ClientSession) []map[string]any {
	t.Helper()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "pincode_lookup", Arguments: map[string]any{"pincode": "110001"}})
	if err != nil || res.IsError {
		t.Fatalf("pincode_lookup: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out struct {
		PostOffices []map[string]any `json:"post_offices"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out.PostOffices
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// freeAddr is a loopback address with a port free now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().String()
}

// waitReady polls url until it answers 200.
func waitReady(ctx context.Context, t *testing.T, url string) {
	t.Helper()
	for ctx.Err() == nil {
		if res, err := http.Get(url); err == nil {
			_ = res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s never ready", strings.TrimPrefix(url, "http://"))
}

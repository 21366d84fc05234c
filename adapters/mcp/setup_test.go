package mcp_test

import (
	"context"
	"encoding/json"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pinsight/pinsight/adapters/mcp"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/postaldir"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// opened is the embedded directory, loaded once for the package's tests.
var opened = sync.OnceValues(func() (*postaldir.Postal, error) { return postaldir.Open(context.Background()) })

// analyser scores every page 60 with one failed and one passed check;
// the host "quota.test" is over the daily quota and
// "down.test" does not answer; "app.test" renders with render auto,
// keeping screenshots.
type analyser struct{}

func (analyser) AnalyseWithScreenshots(ctx context.Context, _ int64, rawURL string, mode pagecheck.RenderMode, shots report.ScreenshotMode) (pagecheck.Analysis, report.Screenshots, error) {
	u, _ := url.Parse(rawURL)
	switch u.Hostname() {
	case "quota.test":
		return pagecheck.Analysis{}, report.Screenshots{}, &reports.QuotaError{Daily: true, Limit: 100, Wait: 90 * time.Minute}
	case "down.test":
		return pagecheck.Analysis{}, report.Screenshots{}, &webpage.FetchError{Reason: "no response from down.test"}
	}
	res := pagecheck.Results{pagecheck.SEO: {
		{ID: "title", Title: "Title", Category: pagecheck.SEO, Importance: pagecheck.High, Passed: true, Message: "fine"},
		{ID: "h1", Title: "Heading", Category: pagecheck.SEO, Importance: pagecheck.High, Passed: false, Message: "no h1",
			Advice: "Add one h1.", Errors: []string{"missing"}},
	}}
	a := pagecheck.Analysis{URL: rawURL, Results: res, Score: 50, Rating: pagecheck.RatingFor(50)}
	if u.Hostname() != "app.test" || mode != pagecheck.RenderAuto {
		return a, report.Screenshots{}, nil
	}
	a.Rendering = &pagecheck.Rendering{Rendered: true, Reason: "app_shell", Settled: true, URL: rawURL}
	taken := report.Screenshots{Viewport: porttest.FakeJPEG(2000, 'v')}
	if shots == report.ScreenshotFull {
		taken.Full = porttest.FakeJPEG(4000, 'f')
	}
	return a, taken, nil
}

// fixture is a server over the embedded directory, in-memory accounts and
// reports, and the test analyser.
type fixture struct {
	dir *directory.Directory
	geo *geocode.Geocoder
	acc *accounts.Accounts
	rs  *reports.Reports
	cs  *crawls.Crawls // its queue is never started: crawls stay queued
	key string         // a valid API key
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	p, err := opened()
	if err != nil {
		t.Fatal(err)
	}
	pw := accounts.NewPasswords(accounts.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}, accounts.PasswordLimits{})
	reportStore := memory.NewReportStore()
	crawlStore := memory.NewCrawlStore(reportStore)
	jobs := memory.NewJobs(reportStore, ports.JobSettings{})
	jobs.Crawls(crawlStore)
	f := &fixture{dir: p.Directory, geo: p.Geocoder, acc: accounts.New(memory.NewAccountStore(), pw),
		rs: reports.New(reportStore, analyser{}, pw),
		cs: crawls.New(crawlStore, jobs, nil, pw, crawls.Config{})}
	s, err := f.acc.CreateUser(context.Background(), "agent@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	f.key = s.Key
	return f
}

// options are the server's options, with key as the session's key.
func (f *fixture) options(key string) mcp.Options {
	return mcp.Options{Directory: f.dir, Geocoder: f.geo, Reports: f.rs, Crawls: f.cs, Key: key, Version: "test",
		Authenticate: func(ctx context.Context, k string) (account.User, error) {
			u, _, err := f.acc.Authenticate(ctx, k)
			return u, err
		}}
}

// connect runs a server with o and returns a client session to it over
// the SDK's in-memory transport.
func connect(t *testing.T, o mcp.Options) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	if _, err := mcp.New(o).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// toolError is the structured content of a failed call.
type toolError struct {
	Code              string              `json:"code"`
	Message           string              `json:"message"`
	Arguments         map[string][]string `json:"arguments"`
	RetryAfterSeconds int                 `json:"retry_after_seconds"`
}

// call calls a tool, failing the test on a protocol error, and decodes
// its structured content into out (nil: not decoded). It returns the
// result.
func call(t *testing.T, cs *sdk.ClientSession, name string, args any, out any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if out != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: structured content %s: %v", name, b, err)
		}
	}
	return res
}

// mustSucceed calls a tool that must succeed, checks its structured
// content against the tool's output schema and its text is not empty.
func mustSucceed(t *testing.T, cs *sdk.ClientSession, tools map[string]*sdk.Tool, name string, args any, out any) *sdk.CallToolResult {
	t.Helper()
	res := call(t, cs, name, args, out)
	if res.IsError {
		t.Fatalf("%s(%v) failed: %s", name, args, text(res))
	}
	if text(res) == "" {
		t.Errorf("%s: no text for a person", name)
	}
	checkSchema(t, tools[name], res.StructuredContent)
	return res
}

// mustFail calls a tool that must fail with code, returning the error.
func mustFail(t *testing.T, cs *sdk.ClientSession, name string, args any, code string) toolError {
	t.Helper()
	var e toolError
	res := call(t, cs, name, args, &e)
	if !res.IsError || e.Code != code {
		t.Fatalf("%s(%v) = error %v code %q (%s), want code %q", name, args, res.IsError, e.Code, text(res), code)
	}
	if e.Message == "" || text(res) == "" {
		t.Errorf("%s: error without a message: %+v", name, e)
	}
	return e
}

// text is the text content of a result.
func text(res *sdk.CallToolResult) string {
	var s string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			s += tc.Text
		}
	}
	return s
}

// checkSchema validates v against tool's output schema.
func checkSchema(t *testing.T, tool *sdk.Tool, v any) {
	t.Helper()
	b, _ := json.Marshal(tool.OutputSchema)
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: output schema: %v", tool.Name, err)
	}
	b, _ = json.Marshal(v)
	var inst any
	_ = json.Unmarshal(b, &inst)
	if err := rs.Validate(inst); err != nil {
		t.Errorf("%s: result does not fit its output schema: %v\n%s", tool.Name, err, b)
	}
}

// listTools lists the server's tools by name.
func listTools(t *testing.T, cs *sdk.ClientSession) map[string]*sdk.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*sdk.Tool{}
	for _, tl := range res.Tools {
		out[tl.Name] = tl
	}
	return out
}

package crawl_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/robots"
)

func ptr[T any](v T) *T { return &v }

func TestNewSettingsDefaults(t *testing.T) {
	s, err := crawl.NewSettings(crawl.Params{URL: "https://Example.com"})
	want := crawl.Settings{
		URL: "https://example.com/", MaxPages: 500, MaxDepth: 10, Concurrency: 2,
		Include: []string{}, Exclude: []string{}, Headers: []crawl.Header{}, Privacy: report.Private, Render: pagecheck.RenderOff,
	}
	if err != nil || !reflect.DeepEqual(s, want) {
		t.Fatalf("NewSettings = %+v, %v\nwant %+v", s, err, want)
	}
}

func TestNewSettingsFull(t *testing.T) {
	s, err := crawl.NewSettings(crawl.Params{
		URL: "https://example.com/shop/", MaxPages: ptr(10_000), MaxDepth: ptr(0), Concurrency: ptr(8), DelayMS: ptr(250),
		Include: []string{" /shop/ ", "/caf\u00e9*"}, Exclude: []string{"/*.pdf$"}, Subdomains: true,
		Headers: map[string]string{"cookie": " session=abc ", "Authorization": "Bearer x", "X-Test": "1"},
		Privacy: ptr(2), Password: ptr("a long share password"),
	})
	want := crawl.Settings{
		URL: "https://example.com/shop/", MaxPages: 10_000, MaxDepth: 0, Concurrency: 8, Delay: 250 * time.Millisecond,
		Include: []string{"/shop/", "/caf%C3%A9*"}, Exclude: []string{"/*.pdf$"}, Subdomains: true,
		Headers: []crawl.Header{{"Authorization", "Bearer x"}, {"Cookie", "session=abc"}, {"X-Test", "1"}},
		Privacy: report.Protected, Password: "a long share password", Render: pagecheck.RenderOff,
	}
	if err != nil || !reflect.DeepEqual(s, want) {
		t.Fatalf("NewSettings = %+v, %v\nwant %+v", s, err, want)
	}
}

func TestNewSettingsInvalid(t *testing.T) {
	long := strings.Repeat("a", 9000)
	tests := []struct {
		name   string
		p      crawl.Params
		fields []string
	}{
		{"no url", crawl.Params{}, []string{"url"}},
		{"ftp url", crawl.Params{URL: "ftp://example.com/"}, []string{"url"}},
		{"url with credentials", crawl.Params{URL: "https://me:pw@example.com/"}, []string{"url"}},
		{"max_pages 0", crawl.Params{URL: "https://e.com", MaxPages: ptr(0)}, []string{"max_pages"}},
		{"max_pages 10001", crawl.Params{URL: "https://e.com", MaxPages: ptr(10_001)}, []string{"max_pages"}},
		{"max_depth -1", crawl.Params{URL: "https://e.com", MaxDepth: ptr(-1)}, []string{"max_depth"}},
		{"max_depth 101", crawl.Params{URL: "https://e.com", MaxDepth: ptr(101)}, []string{"max_depth"}},
		{"concurrency 0", crawl.Params{URL: "https://e.com", Concurrency: ptr(0)}, []string{"concurrency"}},
		{"concurrency 9", crawl.Params{URL: "https://e.com", Concurrency: ptr(9)}, []string{"concurrency"}},
		{"delay_ms negative", crawl.Params{URL: "https://e.com", DelayMS: ptr(-1)}, []string{"delay_ms"}},
		{"delay_ms too long", crawl.Params{URL: "https://e.com", DelayMS: ptr(10_001)}, []string{"delay_ms"}},
		{"include without slash", crawl.Params{URL: "https://e.com", Include: []string{"blog"}}, []string{"include"}},
		{"exclude with $ inside", crawl.Params{URL: "https://e.com", Exclude: []string{"/a$b"}}, []string{"exclude"}},
		{"exclude empty", crawl.Params{URL: "https://e.com", Exclude: []string{""}}, []string{"exclude"}},
		{"include NUL", crawl.Params{URL: "https://e.com", Include: []string{"/\x00"}}, []string{"include"}},
		{"include too long", crawl.Params{URL: "https://e.com", Include: []string{"/" + long}}, []string{"include"}},
		{"too many includes", crawl.Params{URL: "https://e.com", Include: make([]string, 21)}, []string{"include"}},
		{"too many headers", crawl.Params{URL: "https://e.com", Headers: map[string]string{"A": "1", "B": "1", "C": "1", "D": "1", "E": "1", "F": "1"}}, []string{"headers"}},
		{"host header", crawl.Params{URL: "https://e.com", Headers: map[string]string{"host": "other.com"}}, []string{"headers"}},
		{"duplicate header", crawl.Params{URL: "https://e.com", Headers: map[string]string{"cookie": "a", "Cookie": "b"}}, []string{"headers"}},
		{"privacy 3", crawl.Params{URL: "https://e.com", Privacy: ptr(3)}, []string{"privacy"}},
		{"password without privacy 2", crawl.Params{URL: "https://e.com", Password: ptr("a long share password")}, []string{"password"}},
		{"privacy 2 without password", crawl.Params{URL: "https://e.com", Privacy: ptr(2)}, []string{"password"}},
		{"schedule", crawl.Params{URL: "https://e.com", Schedule: "hourly"}, []string{"schedule"}},
		{"schedule with headers", crawl.Params{URL: "https://e.com", Schedule: "daily", Headers: map[string]string{"Cookie": "a=b"}}, []string{"schedule"}},
		{"all at once", crawl.Params{URL: "x", MaxPages: ptr(-5), Concurrency: ptr(100), Schedule: "x", Include: []string{"x"}},
			[]string{"url", "max_pages", "concurrency", "schedule", "include"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := crawl.NewSettings(tt.p)
			var ve *report.ValidationError
			if !errors.As(err, &ve) || fault.KindOf(err) != fault.Invalid {
				t.Fatalf("err = %v, want a *report.ValidationError", err)
			}
			if len(ve.Fields) != len(tt.fields) {
				t.Errorf("fields = %v, want %v", ve.Fields, tt.fields)
			}
			for _, f := range tt.fields {
				if len(ve.Fields[f]) == 0 {
					t.Errorf("no message for %s: %v", f, ve.Fields)
				}
			}
		})
	}
}

func TestCheckHeader(t *testing.T) {
	tests := []struct {
		name, value string
		ok          bool
		says        string
	}{
		{"Cookie", "a=1; b=2", true, ""},
		{"authorization", "Bearer abc.def", true, ""},
		{"X-Custom_1", "tab\tok", true, ""},
		{"Host", "evil.example", false, "chooses which site"},
		{"content-length", "5", false, "frames a request body"},
		{"Transfer-Encoding", "chunked", false, "frames a request body"},
		{"Connection", "close", false, "hop-by-hop"},
		{"TE", "trailers", false, "hop-by-hop"},
		{"Upgrade", "websocket", false, "hop-by-hop"},
		{"Proxy-Authorization", "Basic x", false, "proxy"},
		{"User-Agent", "Googlebot", false, "robots.txt"},
		{"Accept-Encoding", "br", false, "decode"},
		{"X-A", "one\r\nX-Injected: 1", false, "no CR, LF"},
		{"X-A", "nul\x00", false, "no CR, LF"},
		{"X-A", "caf\u00e9", false, "printable ASCII"},
		{"X-A", "", false, "1 to 8192"},
		{"X-A", strings.Repeat("v", 8193), false, "1 to 8192"},
		{"Bad Name", "v", false, "header names"},
		{"X:A", "v", false, "header names"},
		{"", "v", false, "header names"},
		{"X-\u00e9", "v", false, "header names"},
	}
	for _, tt := range tests {
		msg := crawl.CheckHeader(tt.name, tt.value)
		if (msg == "") != tt.ok || !strings.Contains(msg, tt.says) {
			t.Errorf("CheckHeader(%q) = %q, want ok %v saying %q", tt.name, msg, tt.ok, tt.says)
		}
		if tt.value != "" && len(tt.value) > 3 && strings.Contains(msg, tt.value) {
			t.Errorf("CheckHeader(%q) repeats the value: %q", tt.name, msg)
		}
	}
}

func ExampleNewSettings() {
	_, err := crawl.NewSettings(crawl.Params{
		URL:         "https://example.com/",
		Concurrency: ptr(20),
		Headers:     map[string]string{"Host": "intranet.local", "Cookie": "session=s3cret"},
	})
	fmt.Println(err)
	// Output: site: invalid concurrency: must be from 1 to 8; headers: Host may not be set: it chooses which site answers, which must be the one the URL names (and the address guard checked)
}

func TestPause(t *testing.T) {
	f := robots.Parse([]byte("User-agent: *\nCrawl-delay: 2\n\nUser-agent: Pinsight\nDisallow: /x\n"))
	tests := []struct {
		delay int
		agent string
		want  time.Duration
	}{
		{0, "Other", 2 * time.Second},
		{3000, "Other", 3 * time.Second},
		{0, "Pinsight/1.0", 0}, // its own group sets no delay
		{500, "Pinsight/1.0", 500 * time.Millisecond},
	}
	for _, tt := range tests {
		s := settings(t, crawl.Params{URL: "https://e.com", DelayMS: ptr(tt.delay)})
		if got := s.Pause(f.For(tt.agent)); got != tt.want {
			t.Errorf("Pause(delay %d, %s) = %v, want %v", tt.delay, tt.agent, got, tt.want)
		}
	}
}

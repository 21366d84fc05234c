package report_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
)

func TestProjectName(t *testing.T) {
	tests := []struct{ url, want string }{
		{"https://www.Example.com/a?b", "example.com"},
		{"http://example.com:8080/", "example.com"},
		{"https://sub.example.com", "sub.example.com"},
		{"https://www2.example.com", "www2.example.com"},
		{"http://WWW.www.example.com", "www.example.com"},
		{"http://127.0.0.1:9/x", "127.0.0.1"},
		{"http://[::1]:9/x", "::1"},
	}
	for _, tt := range tests {
		if got, err := report.ProjectName(tt.url); err != nil || got != tt.want {
			t.Errorf("ProjectName(%q) = %q, %v; want %q", tt.url, got, err, tt.want)
		}
	}
	if _, err := report.ProjectName("not a url"); err == nil {
		t.Error("ProjectName(no host) succeeded")
	}
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		url string
		ok  bool
	}{
		{"https://example.com", true},
		{"http://example.com/" + strings.Repeat("a", report.MaxURLLen-len("http://example.com/")), true},
		{"http://example.com/" + strings.Repeat("a", report.MaxURLLen), false},
		{"", false},
		{"   ", false},
		{"ftp://example.com", false},
		{"example.com", false},
		{"javascript:alert(1)", false},
		{"http://", false},
		{"http://exa mple.com", false},
	}
	for _, tt := range tests {
		err := report.CheckURL(tt.url)
		var ve *report.ValidationError
		if tt.ok != (err == nil) || (err != nil && (!errors.As(err, &ve) || ve.Fields["url"] == nil)) {
			t.Errorf("CheckURL(%.40q) = %v, want ok=%v", tt.url, err, tt.ok)
		}
	}
}

func TestPrivacyAndPassword(t *testing.T) {
	for n, ok := range map[int]bool{-1: false, 0: true, 1: true, 2: true, 3: false} {
		if p, err := report.ParsePrivacy(n); (err == nil) != ok || (ok && int(p) != n) {
			t.Errorf("ParsePrivacy(%d) = %v, %v", n, p, err)
		}
	}
	for p, ok := range map[string]bool{
		"open sesame": true, "  eight ch  ": true, strings.Repeat("ab", 128): true,
		"": false, "x": false, "seven77": false, strings.Repeat(" ", 10): false, strings.Repeat("\x00", 10): false,
		"open\tsesame": false, "password": false, strings.Repeat("ab", 128) + "c": false,
	} {
		err := report.CheckPassword(p)
		var ve *report.ValidationError
		if (err == nil) != ok || err != nil && (!errors.As(err, &ve) || len(ve.Fields["password"]) != 1) {
			t.Errorf("CheckPassword(%q) = %v, want ok=%v", p, err, ok)
		}
	}
}

func TestApply(t *testing.T) {
	at := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	var r report.Report
	res := pagecheck.Results{pagecheck.SEO: {{ID: "title", Passed: true, Importance: pagecheck.High}}}
	if err := r.Apply(pagecheck.Analysis{URL: "https://www.Example.org/x", Results: res, Score: 79}, at); err != nil {
		t.Fatal(err)
	}
	if r.URL != "https://www.Example.org/x" || r.Project != "example.org" || r.Score != 79 || r.Rating != pagecheck.Decent || !r.GeneratedAt.Equal(at) || len(r.Results[pagecheck.SEO]) != 1 {
		t.Errorf("Apply = %+v", r)
	}
}

func TestSummarize(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	reports := []report.Report{
		{Project: "a.com", Score: 80, CreatedAt: t0.Add(time.Hour)},
		{Project: "a.com", Score: 79, CreatedAt: t0},
		{Project: "a.com", Score: 80, CreatedAt: t0.Add(2 * time.Hour)},
	}
	p, ok := report.Summarize(reports)
	// (80+79+80)/3 = 79.67, truncated to 79: decent, not good.
	if !ok || p.Name != "a.com" || p.Reports != 3 || p.Score != 79 || p.Rating != pagecheck.Decent || !p.CreatedAt.Equal(t0) {
		t.Errorf("Summarize = %+v, %v", p, ok)
	}
	if _, ok := report.Summarize(nil); ok {
		t.Error("Summarize(nil) ok")
	}
}

// TestShareTokens: tokens are 26 characters of lower-case base32, never
// repeated; ValidShareToken accepts only that form.
func TestShareTokens(t *testing.T) {
	seen := map[string]bool{}
	for range 10000 {
		tok := report.NewShareToken()
		if len(tok) != report.ShareTokenLen || !report.ValidShareToken(tok) || seen[tok] {
			t.Fatalf("token %q: want %d characters of base32, never repeated", tok, report.ShareTokenLen)
		}
		seen[tok] = true
	}
	for _, s := range []string{"", "abc", strings.Repeat("a", 25), strings.Repeat("a", 27), strings.Repeat("A", 26),
		strings.Repeat("a", 25) + "1", strings.Repeat("a", 25) + "8", strings.Repeat("a", 25) + "=", strings.Repeat("é", 13)} {
		if report.ValidShareToken(s) {
			t.Errorf("ValidShareToken(%q) = true", s)
		}
	}
}

func TestFinishes(t *testing.T) {
	t1, t2 := time.Unix(1_800_000_000, 0), time.Unix(1_800_000_060, 0)
	at := func(s report.Status, gen time.Time) report.Report { return report.Report{Status: s, GeneratedAt: gen} }
	for _, c := range []struct {
		name       string
		prev, next report.Report
		want       bool
	}{
		{"inserted generated", report.Report{}, at(report.StatusGenerated, t1), true},
		{"inserted failed", report.Report{}, at(report.StatusFailed, t1), true},
		{"inserted pending", report.Report{}, at(report.StatusPending, t1), false},
		{"running to generated", at(report.StatusRunning, t1), at(report.StatusGenerated, t2), true},
		{"running to failed, same analysis", at(report.StatusRunning, t1), at(report.StatusFailed, t1), true},
		{"pending to running", at(report.StatusPending, t1), at(report.StatusRunning, t1), false},
		{"generated to pending", at(report.StatusGenerated, t1), at(report.StatusPending, t1), false},
		{"generated, privacy changed", at(report.StatusGenerated, t1), at(report.StatusGenerated, t1), false},
		{"generated, re-analysed at once", at(report.StatusGenerated, t1), at(report.StatusGenerated, t2), true},
	} {
		if got := report.Finishes(c.prev, c.next); got != c.want {
			t.Errorf("%s: Finishes = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestApplyMovesGeneratedAt: a re-analysis of a finished report stored at
// once gets a later GeneratedAt even within the previous one's second; a
// first analysis takes at as given.
func TestApplyMovesGeneratedAt(t *testing.T) {
	t1 := time.Unix(1_800_000_000, 0)
	a := pagecheck.Analysis{URL: "https://example.com/", Score: 50}
	r := report.Report{Status: report.StatusPending, GeneratedAt: t1}
	if err := r.Apply(a, t1); err != nil || !r.GeneratedAt.Equal(t1) {
		t.Fatalf("first analysis at %v: GeneratedAt %v, %v", t1, r.GeneratedAt, err)
	}
	prev := r
	if err := r.Apply(a, t1); err != nil || !r.GeneratedAt.Equal(t1.Add(time.Second)) || !report.Finishes(prev, r) {
		t.Errorf("re-analysis in the same second: GeneratedAt %v, %v; want %v, a finish", r.GeneratedAt, err, t1.Add(time.Second))
	}
	later := t1.Add(time.Hour)
	if err := r.Apply(a, later); err != nil || !r.GeneratedAt.Equal(later) {
		t.Errorf("re-analysis later: GeneratedAt %v, %v; want %v", r.GeneratedAt, err, later)
	}
}

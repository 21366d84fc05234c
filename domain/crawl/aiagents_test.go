package crawl_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/robots"
)

func TestAIAgentsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range crawl.AIAgents {
		key := strings.ToLower(a.Token)
		if seen[key] || a.Operator == "" || (a.Purpose != "training" && a.Purpose != "search" && a.Purpose != "user") {
			t.Errorf("bad or repeated entry %+v", a)
		}
		seen[key] = true
	}
	for _, want := range []string{"gptbot", "chatgpt-user", "oai-searchbot", "google-extended", "claudebot", "anthropic-ai",
		"perplexitybot", "ccbot", "bytespider", "applebot-extended", "meta-externalagent"} {
		if !seen[want] {
			t.Errorf("%s is missing from AIAgents", want)
		}
	}
}

func TestAIReadiness(t *testing.T) {
	body := "User-agent: *\nDisallow: /private/\n\n" +
		"User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\n" +
		"User-agent: ClaudeBot\nDisallow: /shop/\nAllow: /shop/public/\n\n" +
		"User-agent: Google-Extended\nDisallow: /\nAllow: /$\n"
	f := robots.Parse([]byte(body))
	tests := []struct {
		start   string
		token   string
		allowed bool
		group   string
	}{
		{"https://e.com/shop/public/a", "GPTBot", false, "gptbot"},
		{"https://e.com/shop/public/a", "CCBot", false, "ccbot"},
		{"https://e.com/shop/public/a", "ClaudeBot", true, "claudebot"},
		{"https://e.com/shop/x", "ClaudeBot", false, "claudebot"},
		{"https://e.com/private/x", "ClaudeBot", true, "claudebot"}, // its own group only
		{"https://e.com/private/x", "PerplexityBot", false, "*"},
		{"https://e.com/", "Google-Extended", true, "google-extended"},
		{"https://e.com/a", "Google-Extended", false, "google-extended"},
		{"https://e.com/a", "ChatGPT-User", true, "*"},
	}
	for _, tt := range tests {
		var got *crawl.AIAccess
		for _, a := range crawl.AIReadiness(f, tt.start) {
			if a.Token == tt.token {
				got = &a
			}
		}
		if got == nil || got.Allowed != tt.allowed || got.Group != tt.group || (got.Rule == "") != tt.allowed {
			t.Errorf("%s at %s = %+v, want allowed %v by group %q", tt.token, tt.start, got, tt.allowed, tt.group)
		}
	}
	for _, a := range crawl.AIReadiness(robots.File{}, "https://e.com/") {
		if !a.Allowed || a.Group != "" {
			t.Errorf("without robots.txt %s = %+v, want allowed", a.Token, a)
		}
	}
}

func ExampleAIReadiness() {
	f := robots.Parse([]byte("User-agent: GPTBot\nDisallow: /\n"))
	for _, a := range crawl.AIReadiness(f, "https://example.com/")[:3] {
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%s allowed=%v %s", a.Token, a.Allowed, a.Rule)))
	}
	// Output:
	// GPTBot allowed=false Disallow: /
	// OAI-SearchBot allowed=true
	// ChatGPT-User allowed=true
}

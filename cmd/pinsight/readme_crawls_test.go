package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
)

// The page holding the generated crawl issue catalogue, and the markers
// around it.
const (
	crawlsPath  = "../../docs/crawls.md"
	issuesBegin = "<!-- crawl-issues:begin (generated: go test ./cmd/pinsight -run TestCrawlIssueCatalogue -update-readme) -->\n"
	issuesEnd   = "<!-- crawl-issues:end -->\n"
)

// issueCatalogue renders domain/crawl's catalogue as a Markdown table,
// the types only rendered crawls find last, marked.
func issueCatalogue() string {
	var b strings.Builder
	b.WriteString("| type | severity | one per | what | why | advice |\n|---|---|---|---|---|---|\n")
	for _, d := range slices.Concat(crawl.Catalogue, crawl.RenderedCatalogue) {
		if slices.ContainsFunc(crawl.RenderedCatalogue, func(r crawl.IssueDef) bool { return r.Type == d.Type }) {
			d.Title += " (rendered crawls)"
		}
		b.WriteString("| `" + string(d.Type) + "` | " + string(d.Severity) + " | " + d.OnePer + " | " + d.Title + " | " +
			strings.ReplaceAll(d.Why, "|", `\|`) + " | " + strings.ReplaceAll(d.Advice, "|", `\|`) + " |\n")
	}
	return b.String()
}

// TestCrawlIssueCatalogue fails when docs/crawls.md's crawl issue table
// differs from domain/crawl's catalogue; -update-readme rewrites it.
func TestCrawlIssueCatalogue(t *testing.T) {
	raw, err := os.ReadFile(crawlsPath)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(raw), issuesBegin)
	section, after, ok2 := strings.Cut(rest, issuesEnd)
	if !ok1 || !ok2 {
		t.Fatalf("docs/crawls.md lacks the generated crawl issue catalogue between %q and %q", issuesBegin, issuesEnd)
	}
	want := issueCatalogue()
	if section == want {
		return
	}
	if *updateReadme {
		if err := os.WriteFile(crawlsPath, []byte(before+issuesBegin+want+issuesEnd+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/crawls.md's crawl issue catalogue is stale; run: go test ./cmd/pinsight -run TestCrawlIssueCatalogue -update-readme")
}

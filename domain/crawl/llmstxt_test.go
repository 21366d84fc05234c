package crawl_test

import (
	"fmt"
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
)

func TestCheckLLMsTxt(t *testing.T) {
	good := "# Pinsight\n\n> Postal data and site audits for India.\n\nSome notes.\n\n" +
		"## Docs\n\n- [API](https://example.com/api.html): the endpoints\n- [Guide](/guide.html)\n\n" +
		"```\n# not a heading\n- not a link\n```\n\n## Optional\n* [Blog](https://example.com/blog)\n"
	tests := []struct {
		name, body string
		want       string // "code@line" findings
	}{
		{"well formed", good, "[]"},
		{"CRLF and BOM", "\ufeff# T\r\n## S\r\n- [a](/a)\r\n", "[]"},
		{"empty", "  \n\n", "[empty@0]"},
		{"no title", "Intro\n## S\n- [a](/a)\n", "[missing_title@1]"},
		{"H2 first", "## S\n- [a](/a)\n", "[missing_title@1]"},
		{"two titles", "# A\n# B\n", "[extra_title@2]"},
		{"H3", "# A\n## S\n### Sub\n- [a](/a)\n", "[heading_level@3]"},
		{"bad items", "# A\n## S\n- plain text\n- [a](/a)\n- [b]( )\n", "[bad_link@3 bad_link@5]"},
		{"empty section", "# A\n## S\ntext only\n## T\n- [a](/a)\n", "[empty_section@2]"},
		{"empty last section", "# A\n## S\n", "[empty_section@2]"},
		{"list before sections is free", "# A\n- anything\n", "[]"},
		{"#hashtag is not a heading", "# A\n#tag\n", "[]"},
	}
	for _, tt := range tests {
		var got []string
		for _, f := range crawl.CheckLLMsTxt([]byte(tt.body)) {
			if f.Message == "" {
				t.Errorf("%s: finding %s has no message", tt.name, f.Code)
			}
			got = append(got, fmt.Sprintf("%s@%d", f.Code, f.Line))
		}
		if s := fmt.Sprint(got); s != tt.want {
			t.Errorf("%s: findings = %s, want %s", tt.name, s, tt.want)
		}
	}
}

func ExampleCheckLLMsTxt() {
	for _, f := range crawl.CheckLLMsTxt([]byte("Welcome!\n## Docs\n- Read the docs\n")) {
		fmt.Printf("%d %s\n", f.Line, f.Code)
	}
	// Output:
	// 1 missing_title
	// 2 empty_section
	// 3 bad_link
}

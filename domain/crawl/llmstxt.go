package crawl

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// LLMsFinding is a way an llms.txt departs from the llmstxt.org format.
type LLMsFinding struct {
	Code    string // see CheckLLMsTxt
	Line    int    // 1-based; 0 for the file as a whole
	Message string
}

// llmsLink is a list item of an llms.txt section: "- [name](url)",
// optionally followed by ": notes".
var llmsLink = regexp.MustCompile(`^[-*+]\s+\[([^\]]+)\]\(([^)\s]+)\)(:\s*.*)?$`)

// CheckLLMsTxt checks an llms.txt against the llmstxt.org format: an H1
// with the site's or project's name first; then, optionally, a blockquote
// summary and free markdown without headings; then H2 sections, each a
// markdown list of links "- [name](url)" with optional ": notes". It
// returns the findings in line order, none when the file is well formed:
//   - empty: the file has no content;
//   - missing_title: the first content is not an H1 ("# Name");
//   - extra_title: a second H1;
//   - heading_level: a heading other than H1 and H2 (the format has no
//     others);
//   - bad_link: a list item of a section that is not a link in that form,
//     or whose URL does not parse;
//   - empty_section: an H2 section with no link.
//
// Lines inside fenced code blocks are not read.
func CheckLLMsTxt(body []byte) []LLMsFinding {
	var out []LLMsFinding
	add := func(code string, line int, msg string) {
		out = append(out, LLMsFinding{Code: code, Line: line, Message: msg})
	}
	seenContent, inFence := false, false
	section, sectionLine, sectionLinks := "", 0, 0
	closeSection := func() {
		if sectionLine > 0 && sectionLinks == 0 {
			add("empty_section", sectionLine, "The section \""+section+"\" lists no link.")
		}
	}
	text := strings.ReplaceAll(strings.TrimPrefix(string(body), "\ufeff"), "\r\n", "\n")
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
			seenContent = true
			continue
		}
		if inFence || trimmed == "" {
			continue
		}
		level := headingLevel(trimmed)
		if !seenContent && level != 1 {
			add("missing_title", n, "The file must start with an H1 naming the site or project (\"# Name\").")
		}
		switch {
		case level == 1 && seenContent:
			add("extra_title", n, "Only the first line may be an H1; use H2 for sections.")
		case level == 2:
			closeSection()
			section, sectionLine, sectionLinks = strings.TrimSpace(trimmed[2:]), n, 0
		case level > 2:
			add("heading_level", n, "Use only an H1 title and H2 sections.")
		case sectionLine > 0 && isListItem(trimmed):
			m := llmsLink.FindStringSubmatch(trimmed)
			if m == nil {
				add("bad_link", n, "List a section's files as \"- [name](url)\", optionally followed by \": notes\".")
			} else if _, err := url.Parse(m[2]); err != nil {
				add("bad_link", n, "The link's URL is not valid.")
			} else {
				sectionLinks++
			}
		}
		seenContent = true
	}
	closeSection()
	if !seenContent {
		add("empty", 0, "The file is empty.")
	}
	slices.SortStableFunc(out, func(a, b LLMsFinding) int { return a.Line - b.Line })
	return out
}

// headingLevel is the level of an ATX heading ("## Docs" is 2), 0 for
// another line.
func headingLevel(line string) int {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(line) && line[n] != ' ' && line[n] != '\t' {
		return 0
	}
	return n
}

func isListItem(line string) bool {
	return len(line) > 1 && strings.ContainsRune("-*+", rune(line[0])) && (line[1] == ' ' || line[1] == '\t')
}

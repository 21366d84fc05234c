package arch

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// guideFile is the contributor's guide to writing an adapter.
const guideFile = "ADAPTERS.md"

// TestAdaptersGuide fails when a port or a conformance suite exists that
// the contributor's guide does not name. A port is an exported interface
// type of package ports (ports/*.go); a suite an exported function of
// package porttest named Test... whose first parameter is a *testing.T.
// The guide names each in backticks, qualified by its package:
// `ports.AccountStore`, `porttest.TestAccountStore`.
func TestAdaptersGuide(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join(repoRoot, guideFile))
	if err != nil {
		t.Fatal(err)
	}
	ports := declared(t, "ports", isInterface)
	suites := declared(t, "ports/porttest", isSuite)
	for _, want := range []string{"ports.AccountStore", "ports.RateLimiter", "ports.Jobs"} {
		if !slices.Contains(ports, want) {
			t.Fatalf("port %s not found in ports/*.go (found %v)", want, ports)
		}
	}
	for _, want := range []string{"porttest.TestAccountStore", "porttest.TestRateLimiter", "porttest.TestJobs"} {
		if !slices.Contains(suites, want) {
			t.Fatalf("suite %s not found in ports/porttest (found %v)", want, suites)
		}
	}
	for _, name := range unnamed(string(guide), append(ports, suites...)) {
		t.Errorf("%s does not name `%s`: add it to the table of ports and suites", guideFile, name)
	}
}

// unnamed returns the names the guide does not mention in backticks.
func unnamed(guide string, names []string) []string {
	var missing []string
	for _, n := range names {
		if !strings.Contains(guide, "`"+n+"`") {
			missing = append(missing, n)
		}
	}
	return missing
}

// declared parses the non-test Go files of dir (relative to the module
// root) and returns, qualified by the package's name, the exported
// declarations keep selects.
func declared(t *testing.T, dir string, keep func(ast.Decl) []string) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(repoRoot, dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	var names []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			for _, n := range keep(d) {
				if ast.IsExported(n) {
					names = append(names, f.Name.Name+"."+n)
				}
			}
		}
	}
	slices.Sort(names)
	return names
}

// isInterface returns the interface types d declares.
func isInterface(d ast.Decl) []string {
	g, ok := d.(*ast.GenDecl)
	if !ok || g.Tok != token.TYPE {
		return nil
	}
	var names []string
	for _, s := range g.Specs {
		if ts := s.(*ast.TypeSpec); isInterfaceType(ts.Type) {
			names = append(names, ts.Name.Name)
		}
	}
	return names
}

func isInterfaceType(e ast.Expr) bool {
	_, ok := e.(*ast.InterfaceType)
	return ok
}

// isSuite returns the function d declares when it is a suite: a plain
// function named Test... whose first parameter is a *testing.T.
func isSuite(d ast.Decl) []string {
	f, ok := d.(*ast.FuncDecl)
	if !ok || f.Recv != nil || !strings.HasPrefix(f.Name.Name, "Test") || len(f.Type.Params.List) == 0 {
		return nil
	}
	star, ok := f.Type.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return nil
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "T" {
		return nil
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "testing" {
		return nil
	}
	return []string{f.Name.Name}
}

// TestGuideNames checks unnamed itself: a name counts only in backticks,
// whole, so a longer name does not stand for a shorter one.
func TestGuideNames(t *testing.T) {
	guide := "| `ports.Jobs` | ... | `porttest.TestJobs` (history) | ports.ReviewStore | `ports.ReviewCountsX` |"
	got := unnamed(guide, []string{"ports.Jobs", "porttest.TestJobs", "ports.ReviewStore", "ports.ReviewCounts"})
	if !slices.Equal(got, []string{"ports.ReviewStore", "ports.ReviewCounts"}) {
		t.Errorf("unnamed = %v, want the unquoted and the only-as-prefix names", got)
	}
	if !slices.Equal(isSuite(mustDecl(t, "func TestX(t *testing.T, f func()) {}")), []string{"TestX"}) ||
		isSuite(mustDecl(t, "func TestY(b *testing.B) {}")) != nil || isSuite(mustDecl(t, "func BenchmarkZ(b *testing.B) {}")) != nil {
		t.Error("isSuite selects the wrong functions")
	}
}

func mustDecl(t *testing.T, src string) ast.Decl {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package x\n"+src, 0)
	if err != nil {
		t.Fatal(err)
	}
	return f.Decls[0]
}

// TestDocumentReferences fails when a tracked Go file or Markdown document
// cites a document the repository does not hold: a relative Markdown link
// whose target is missing, a name ending in .md that no file matches, a
// path that climbs out of the repository (such as a sibling folder beside
// the clone), or a numbered section sign pointing into another document.
// A Markdown link resolves against its file's folder; a mentioned .md path
// against its file's folder or the repository's root, and a bare .md name
// may be any tracked file of that name. In Go files, comments are read for
// all but links (Go comments have none) and string literals for .md names.
func TestDocumentReferences(t *testing.T) {
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	tracked := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	if len(tracked) < 50 || !slices.Contains(tracked, guideFile) {
		t.Fatalf("git ls-files found %d files, without %s", len(tracked), guideFile)
	}
	repo := newRepoFiles(tracked)
	checked := 0
	for _, name := range tracked {
		if !strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, ".md") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(repoRoot, name))
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet in the index
		} else if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, bad := range citations(name, string(data), repo) {
			t.Errorf("%s cites %s", name, bad)
		}
	}
	if checked < 50 {
		t.Fatalf("only %d Go and Markdown files checked", checked)
	}
}

// repoFiles answers whether a repository-relative path is a tracked file
// or a folder holding one, and which tracked files have a base name.
type repoFiles struct {
	paths map[string]bool
	bases map[string]bool
}

func newRepoFiles(tracked []string) repoFiles {
	r := repoFiles{paths: map[string]bool{}, bases: map[string]bool{}}
	for _, f := range tracked {
		r.bases[path.Base(f)] = true
		for p := f; p != "."; p = path.Dir(p) {
			r.paths[p] = true
		}
	}
	return r
}

var (
	urlPattern     = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s)>\]"'` + "`" + `]*`)
	linkPattern    = regexp.MustCompile(`\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)`)
	mdNamePattern  = regexp.MustCompile(`[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b`)
	climbPattern   = regexp.MustCompile(`(?:^|[\s(\[` + "`" + `'"])((?:\.\./)+[A-Za-z0-9_][A-Za-z0-9_./-]*)`)
	sectionPattern = regexp.MustCompile(`§\s*\d`)
)

// citations returns what the file name (repository-relative) with content
// src cites that the repository does not hold.
func citations(name, src string, repo repoFiles) []string {
	var prose, literals []string
	markdown := strings.HasSuffix(name, ".md")
	if markdown {
		prose = []string{src}
	} else {
		prose, literals = goText(src)
	}
	dir := path.Dir(name)
	var bad []string
	for _, text := range prose {
		text = urlPattern.ReplaceAllString(text, "")
		for _, m := range linkPattern.FindAllStringSubmatch(text, -1) {
			if !markdown {
				break // Go comments have no Markdown links (and brackets followed by parentheses are often grammar)
			}
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(m[1], ":") {
				continue // an anchor of the same page, or mailto: and the like
			}
			p := path.Join(dir, target)
			if strings.HasPrefix(target, "/") {
				p = path.Clean(strings.TrimPrefix(target, "/"))
			}
			if !repo.paths[p] {
				bad = append(bad, "the link target "+m[1]+" (no "+p+" in the repository)")
			}
		}
		for _, m := range climbPattern.FindAllStringSubmatch(text, -1) {
			p := path.Join(dir, strings.TrimRight(m[1], "."))
			if p == ".." || strings.HasPrefix(p, "../") || !repo.paths[p] {
				bad = append(bad, "the path "+m[1]+" (outside the repository or missing)")
			}
		}
		if m := sectionPattern.FindString(text); m != "" {
			bad = append(bad, "a section ("+m+"...) of a document: state the rule itself")
		}
	}
	for _, text := range append(prose, literals...) {
		text = urlPattern.ReplaceAllString(text, "")
		for _, m := range mdNamePattern.FindAllString(text, -1) {
			if !mdExists(m, dir, repo) {
				bad = append(bad, "the document "+m+" (not in the repository)")
			}
		}
	}
	slices.Sort(bad)
	return slices.Compact(bad)
}

// mdExists reports whether a mentioned .md name is a tracked file:
// relative to dir, or to the root, or (a bare name) anywhere.
func mdExists(m, dir string, repo repoFiles) bool {
	if repo.paths[path.Join(dir, m)] {
		return true
	}
	if !strings.HasPrefix(m, ".") && repo.paths[path.Clean(strings.TrimPrefix(m, "/"))] {
		return true
	}
	return !strings.Contains(m, "/") && repo.bases[m]
}

// goText splits Go source into its comments and its string literals.
func goText(src string) (comments, literals []string) {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, scanner.ScanComments)
	for {
		_, tok, lit := s.Scan()
		switch tok {
		case token.EOF:
			return comments, literals
		case token.COMMENT:
			comments = append(comments, lit)
		case token.STRING:
			literals = append(literals, lit)
		}
	}
}

// TestCitations checks citations itself on made-up files: what resolves
// passes, each kind of outside citation is found. The fixtures write
// {md} for the extension, so this file cites nothing itself.
func TestCitations(t *testing.T) {
	md := func(s string) string { return strings.ReplaceAll(s, "{md}", ".md") }
	var files []string
	for _, f := range []string{"README{md}", "ADAPTERS{md}", "docs/SCALING{md}", "tests/load/README{md}", "tests/images/debian.sh", "cmd/pinsight/main.go"} {
		files = append(files, md(f))
	}
	repo := newRepoFiles(files)
	outside := "DESIGN{md}"
	for _, tt := range []struct {
		name, src string
		bad       int
	}{
		{"docs/x{md}", "See [the guide](../ADAPTERS{md}#1-what-to-implement), [scaling](SCALING{md}), `tests/load/README{md}` and README{md}.", 0},
		{"docs/x{md}", "Links [out](https://example.com/" + outside + ") and [here](#top) and <mailto:a@b.c>.", 0},
		{"tests/images/redis/README{md}", "Steps in `../debian.sh`.", 0},
		{"cmd/pinsight/x_test.go", "package main\n\nconst readme = \"../../README{md}\"\n", 0},
		{"cmd/pinsight/x_test.go", "package main\n\n// A path in a string is data: \nvar p = \"/a/../b\"\n", 0},
		{"docs/x{md}", "The rule is in " + outside + ".", 1},
		{"docs/x{md}", "See [design](../" + outside + ").", 3}, // a missing link, a climb, a missing document
		{"docs/x{md}", "See [style](STY" + "LE{md}).", 2},
		{"domain/x.go", "package x\n\n// tag[-region](-variant)*, a grammar\nvar x = 1\n", 0},
		{"README{md}", "Runs with ../sha" + "red beside it.", 1},
		{"cmd/pinsight/x.go", "package main\n\n// As in " + outside + ", the rule.\nfunc f() {}\n", 1},
		{"cmd/pinsight/x.go", "package main\n\n// The rule (seed " + "§4.14).\nfunc f() {}\n", 1},
		{"cmd/pinsight/x.go", "package main\n\nvar s = \"see " + outside + "\"\n", 1},
	} {
		if got := citations(md(tt.name), md(tt.src), repo); len(got) != tt.bad {
			t.Errorf("citations(%s, %q) = %q, want %d", tt.name, tt.src, got, tt.bad)
		}
	}
}

// TestReadmeFirstScreen fails when the README's first screen (what comes
// before its first ## heading) stops giving exactly the two set-up
// commands of a fresh machine, each in a block of its own: the server on
// its embedded default, then the tests exactly as CI runs them (the go
// test list that .ci/run calls, character for character).
func TestReadmeFirstScreen(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(filepath.Join(repoRoot, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	m := ciTestCommand.FindSubmatch(ci)
	if m == nil {
		t.Fatalf(".ci/run has no line `if ! { go test ...; }; then`: %s", ciTestCommand)
	}
	firstScreen, _, _ := strings.Cut(string(readme), "\n## ")
	want := []string{"go run ./cmd/pinsight serve", string(m[1])}
	if got := fencedBlocks(firstScreen); !slices.Equal(got, want) {
		t.Errorf("README.md's first screen has the code blocks %q, want exactly %q (the second is what .ci/run calls)", got, want)
	}
}

// ciTestCommand finds the test command in .ci/run: the list that CI tests
// explicitly (errexit ignores the failure of an && list's first command).
var ciTestCommand = regexp.MustCompile(`(?m)^if ! \{ (go test [^\n]*?); \}; then$`)

// fencedBlocks returns the bodies of the fenced code blocks of a Markdown
// text, trimmed.
func fencedBlocks(md string) []string {
	var blocks []string
	var cur strings.Builder
	in := false
	for line := range strings.Lines(md) {
		if strings.HasPrefix(line, "```") {
			if in {
				blocks = append(blocks, strings.TrimSpace(cur.String()))
				cur.Reset()
			}
			in = !in
			continue
		}
		if in {
			cur.WriteString(line)
		}
	}
	return blocks
}

// TestDocLinks fails when a relative link of README.md or of a page in
// docs/ leads nowhere: to no file of the work tree, or, with an #anchor,
// to no heading of its Markdown target (anchors as GitHub makes them:
// githubAnchors). Links in code (fenced blocks, code spans) are text.
func TestDocLinks(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(repoRoot, "README.md"))
	if len(pages) < 10 {
		t.Fatalf("only %d pages: %v", len(pages), pages)
	}
	anchors := map[string]map[string]bool{} // by file, as read
	anchorsOf := func(file string) map[string]bool {
		if a, ok := anchors[file]; ok {
			return a
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		anchors[file] = githubAnchors(string(src))
		return anchors[file]
	}
	links := 0
	for _, page := range pages {
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(repoRoot, page)
		for _, link := range markdownLinks(string(src)) {
			links++
			target, anchor, _ := strings.Cut(link, "#")
			file := page
			if target != "" {
				file = filepath.Join(filepath.Dir(page), filepath.FromSlash(target))
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s links to %s: no such file", name, link)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(file, ".md") {
				t.Errorf("%s links to %s: an anchor into a file that is not Markdown", name, link)
			} else if !anchorsOf(file)[anchor] {
				t.Errorf("%s links to %s: no heading of %s has the anchor #%s", name, link, filepath.Base(file), anchor)
			}
		}
	}
	if links < 30 {
		t.Fatalf("only %d relative links found in %d pages", links, len(pages))
	}
}

var (
	codeSpanPattern = regexp.MustCompile("`+[^`]*`+")
	headingPattern  = regexp.MustCompile(`^#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`)
	inlineLink      = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
)

// markdownLinks returns the relative link targets of a Markdown text: not
// those with a scheme (https:, mailto:), not those in code.
func markdownLinks(md string) []string {
	var links []string
	for _, line := range proseLines(md) {
		line = codeSpanPattern.ReplaceAllString(line, "")
		for _, m := range linkPattern.FindAllStringSubmatch(line, -1) {
			if !strings.Contains(m[1], ":") {
				links = append(links, m[1])
			}
		}
	}
	return links
}

// proseLines returns the lines of a Markdown text outside fenced code
// blocks.
func proseLines(md string) []string {
	var lines []string
	in := false
	for line := range strings.Lines(md) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(strings.TrimLeft(line, " "), "```") {
			in = !in
			continue
		}
		if !in {
			lines = append(lines, line)
		}
	}
	return lines
}

// githubAnchors returns the anchors GitHub gives the ATX headings of a
// Markdown text: the heading's text (code spans and links reduced to
// their text) lower-cased, every character but letters, digits, marks,
// spaces, hyphens and underscores dropped, each space a hyphen; a
// heading whose anchor was taken gets -1, -2... appended.
func githubAnchors(md string) map[string]bool {
	anchors := map[string]bool{}
	for _, line := range proseLines(md) {
		m := headingPattern.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		text := inlineLink.ReplaceAllString(m[1], "$1")
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
				b.WriteRune(r)
			}
		}
		slug := b.String()
		for n := 1; anchors[slug]; n++ {
			slug = fmt.Sprintf("%s-%d", b.String(), n)
		}
		anchors[slug] = true
	}
	return anchors
}

// TestGithubAnchors checks githubAnchors and markdownLinks themselves on
// made-up pages, against anchors GitHub gives such headings. The fixtures
// write {md} for the extension, so this file cites nothing itself.
func TestGithubAnchors(t *testing.T) {
	md := func(s string) string { return strings.ReplaceAll(s, "{md}", ".md") }
	page := "# Pinsight\n\n## AI assistants (MCP)\n\n### `--addr` and the port\n\n## Crawls: whole-site audits\n\n" +
		"## One page's analysis\n\n## Tests\n\n## Tests\n\n```sh\n# a comment, not a heading\n```\n\n## [Link](x{md}) in a heading ##\n\n## Ünïcode ok\n"
	got := githubAnchors(md(page))
	want := []string{"pinsight", "ai-assistants-mcp", "--addr-and-the-port", "crawls-whole-site-audits", "one-pages-analysis", "tests", "tests-1", "link-in-a-heading", "ünïcode-ok"}
	for _, a := range want {
		if !got[a] {
			t.Errorf("githubAnchors lacks %q: %v", a, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("githubAnchors = %v, want exactly %v", got, want)
	}
	links := markdownLinks(md("See [a](docs/a{md}#x), [b](https://example.com/b{md}), `[c](c{md})` and [d](#top).\n```\n[e](e{md})\n```\n"))
	if !slices.Equal(links, []string{md("docs/a{md}#x"), "#top"}) {
		t.Errorf("markdownLinks = %q, want the relative links outside code", links)
	}
	blocks := fencedBlocks("x\n```sh\na\n```\ny\n```\nb\nc\n```\n")
	if !slices.Equal(blocks, []string{"a", "b\nc"}) {
		t.Errorf("fencedBlocks = %q", blocks)
	}
	if m := ciTestCommand.FindStringSubmatch("x\nif ! { go test ./... && go test -short ./...; }; then\n"); m == nil || m[1] != "go test ./... && go test -short ./..." {
		t.Errorf("ciTestCommand = %q", m)
	}
}

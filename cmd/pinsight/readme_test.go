package main

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the generated regions of the documentation (the serve reference in docs/configuration.md, the crawl issue catalogue in docs/crawls.md)")

// The README, and the page holding the generated serve reference between
// its markers.
const (
	readmePath  = "../../README.md"
	configPath  = "../../docs/configuration.md"
	refBegin    = "<!-- serve-flags:begin (generated: go test ./cmd/pinsight -run TestServeReference -update-readme) -->\n"
	refEnd      = "<!-- serve-flags:end -->\n"
	envSuffixAt = " (env " + envPrefix
)

// serveReference renders every serve flag as a Markdown table row: flag,
// environment variable, default, meaning.
func serveReference() string {
	var b strings.Builder
	b.WriteString("| flag | environment | default | meaning |\n|---|---|---|---|\n")
	newServeCmd().Flags().VisitAll(func(f *pflag.Flag) {
		def := "`" + f.DefValue + "`"
		if f.DefValue == "" || f.DefValue == "[]" {
			def = "none"
		}
		usage, _, _ := strings.Cut(f.Usage, envSuffixAt)
		b.WriteString("| `--" + f.Name + "` | `" + envName(f.Name) + "` | " + def + " | " + strings.ReplaceAll(usage, "|", `\|`) + " |\n")
	})
	return b.String()
}

// TestServeReference fails when docs/configuration.md's serve reference
// differs from the serve command's flags (a flag added, removed or changed
// without the documentation); -update-readme rewrites that section only.
func TestServeReference(t *testing.T) {
	raw, err := os.ReadFile(configPath)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(raw), refBegin)
	section, after, ok2 := strings.Cut(rest, refEnd)
	if !ok1 || !ok2 {
		t.Fatalf("docs/configuration.md lacks the generated serve reference between %q and %q", refBegin, refEnd)
	}
	want := serveReference()
	if section == want {
		return
	}
	if *updateReadme {
		if err := os.WriteFile(configPath, []byte(before+refBegin+want+refEnd+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	newServeCmd().Flags().VisitAll(func(f *pflag.Flag) {
		if !strings.Contains(section, "| `--"+f.Name+"` | `"+envName(f.Name)+"` |") {
			t.Errorf("docs/configuration.md does not document serve flag --%s (%s)", f.Name, envName(f.Name))
		}
	})
	t.Errorf("docs/configuration.md's serve reference is stale; run: go test ./cmd/pinsight -run TestServeReference -update-readme")
}

package tests

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/pinsight/pinsight"

// pkg is the part of `go list -json` the rules need.
type pkg struct {
	ImportPath string
	Dir        string
	Standard   bool
	Imports    []string
	Deps       []string
	GoFiles    []string
}

// listPackages runs go list over the module, and over every dependency so
// each import can be classified as standard or not.
func listPackages(t *testing.T) (project []pkg, standard map[string]bool) {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Dir,Standard,Imports,Deps,GoFiles", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	standard = map[string]bool{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		standard[p.ImportPath] = p.Standard
		if strings.HasPrefix(p.ImportPath, module) {
			project = append(project, p)
		}
	}
	return project, standard
}

func rel(path string) string { return strings.TrimPrefix(strings.TrimPrefix(path, module), "/") }

func under(path, dir string) bool {
	r := rel(path)
	return r == dir || strings.HasPrefix(r, dir+"/")
}

// forbiddenInCore are packages the pure core must never reach, even
// indirectly.
var forbiddenInCore = []string{"go.uber.org/fx", "github.com/danielgtaylor/huma", "github.com/uptrace/bun", "github.com/jackc/pgx", "net/http", "database/sql"}

func TestArchitecture(t *testing.T) {
	project, standard := listPackages(t)
	if len(project) < 5 {
		t.Fatalf("go list found only %d project packages", len(project))
	}
	for _, p := range project {
		r := rel(p.ImportPath)
		core := under(p.ImportPath, "digipin") || under(p.ImportPath, "geo") || under(p.ImportPath, "domain") || under(p.ImportPath, "ports")
		for _, dep := range p.Deps {
			if core {
				for _, f := range forbiddenInCore {
					if dep == f || strings.HasPrefix(dep, f+"/") {
						t.Errorf("%s depends on %s: the core stays free of transport, storage and fx", r, dep)
					}
				}
			}
			if !standard[dep] && !strings.HasPrefix(dep, module) && (under(p.ImportPath, "digipin") || under(p.ImportPath, "geo") || under(p.ImportPath, "domain")) {
				t.Errorf("%s depends on %s: digipin, geo and domain use the standard library only", r, dep)
			}
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			if reason := forbiddenImport(p.ImportPath, imp); reason != "" {
				t.Errorf("%s imports %s: %s", r, rel(imp), reason)
			}
		}
		checkFxFiles(t, p)
	}
}

// forbiddenImport returns why from may not import to, or "".
func forbiddenImport(from, to string) string {
	switch {
	case under(from, "digipin") && !under(to, "digipin"):
		return "digipin imports nothing of the project"
	case under(from, "geo") && !under(to, "geo"):
		return "geo imports nothing of the project"
	case under(from, "domain") && !(under(to, "domain") || under(to, "geo") || under(to, "digipin")):
		return "domain may import only domain, geo and digipin"
	case under(from, "ports") && !(under(to, "ports") || under(to, "domain") || under(to, "geo") || under(to, "digipin")):
		return "ports may import only domain, geo and digipin"
	case under(from, "app") && (under(to, "adapters") || under(to, "cmd")):
		return "app never imports adapters (the choice is made in cmd/pinsight)"
	case under(from, "adapters") && under(to, "adapters") && adapterOf(from) != adapterOf(to):
		return "an adapter never imports another adapter"
	case !under(from, "cmd") && !under(from, "tests") && under(to, "cmd"):
		return "nothing imports the binary"
	}
	return ""
}

func adapterOf(path string) string { return strings.SplitN(rel(path), "/", 3)[1] }

// checkFxFiles enforces that fx appears only in module.go files and in cmd.
func checkFxFiles(t *testing.T, p pkg) {
	t.Helper()
	if under(p.ImportPath, "cmd") {
		return
	}
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(p.Dir, name), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "go.uber.org/fx") && name != "module.go" {
				t.Errorf("%s/%s imports fx: fx belongs in module.go files and cmd only", rel(p.ImportPath), name)
			}
		}
	}
}

// TestForbiddenImportRules checks the rule table itself, so a broken rule
// cannot pass silently.
func TestForbiddenImportRules(t *testing.T) {
	m := func(s string) string { return module + "/" + s }
	tests := []struct {
		from, to string
		allowed  bool
	}{
		{"domain/postal", "digipin", true},
		{"domain/postal", "ports", false},
		{"digipin", "geo", false},
		{"geo", "digipin", false},
		{"ports", "domain/postal", true},
		{"ports", "app", false},
		{"app", "ports", true},
		{"app", "adapters/memory", false},
		{"adapters/httpapi", "app", true},
		{"adapters/httpapi", "adapters/memory", false},
		{"adapters/postgres/migrations", "adapters/postgres", true},
		{"adapters/memory", "cmd/pinsight", false},
		{"cmd/pinsight", "adapters/memory", true},
	}
	for _, tt := range tests {
		if got := forbiddenImport(m(tt.from), m(tt.to)) == ""; got != tt.allowed {
			t.Errorf("%s -> %s allowed = %v, want %v", tt.from, tt.to, got, tt.allowed)
		}
	}
}

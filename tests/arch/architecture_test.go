package arch

import (
	"encoding/json"
	"io"
	"os/exec"
	"slices"
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
	cmd.Dir = repoRoot
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
					if f == "net/http" && r == "ports/porttest" {
						continue // the PageFetcher suite serves its pages with net/http/httptest
					}
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
		checkFx(t, p)
		checkMCPDeps(t, p, standard)
	}
	checkLibraryDeps(t, project)
	var fxPackages []string
	for _, p := range project {
		if isFx(p.ImportPath) {
			fxPackages = append(fxPackages, rel(p.ImportPath))
		}
	}
	for _, want := range []string{"app/appfx", "adapters/memory/memoryfx", "adapters/sqlite/sqlitefx", "adapters/postgres/postgresfx", "adapters/httpapi/httpapifx", "adapters/fetch/fetchfx", "adapters/redis/redisfx", "adapters/mcp/mcpfx"} {
		if !slices.Contains(fxPackages, want) {
			t.Errorf("fx package %s not found (found: %v)", want, fxPackages)
		}
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
	case under(from, "app/postaldir") && (under(to, "adapters/memory") && !isFx(to) || under(to, "adapters/indiapost")):
		return "" // the one-call directory (the whole postal directory, no server, in one call) loads the files into the memory store
	case under(from, "adapters/httpapi/internal/apitest") && under(to, "adapters/memory") && !isFx(to):
		return "" // the HTTP tests' shared fixtures (internal: no library user links them) run on the memory stores
	case under(from, "app") && (under(to, "adapters") || under(to, "cmd")):
		return "app never imports adapters (the choice is made in cmd/pinsight; app/postaldir alone loads the directory)"
	case under(from, "adapters/riverjobs") && under(to, "adapters"):
		return "riverjobs (River's glue) imports no adapter"
	case (under(from, "adapters/sqlite") || under(from, "adapters/postgres")) && under(to, "adapters/riverjobs"):
		return "" // the SQL adapters share River's glue: the queue is theirs, on their *sql.Tx
	case (under(from, "adapters/sqlite") || under(from, "adapters/postgres")) && under(to, "adapters/sqlstore"):
		return "" // the SQL engines share one bun store: the storage ports written once, handed each engine's handles
	case under(from, "adapters/internal") && !under(to, "domain"):
		return "adapters/internal holds the adapters' shared encoding and parsing helpers: it imports only domain/... of the project"
	case under(from, "adapters") && under(to, "adapters/internal"):
		return "" // helpers shared by adapters (hand-written JSON), no adapter of their own
	case under(from, "adapters/mcp") && !isFx(from) && !(under(to, "app") || under(to, "domain") || under(to, "ports") || under(to, "digipin") || under(to, "geo")):
		return "the MCP transport imports only app/..., domain/..., ports, digipin and geo of the project (and its SDK)"
	case under(from, "adapters") && under(to, "adapters") && adapterOf(from) != adapterOf(to):
		return "an adapter never imports another adapter"
	case !under(from, "cmd") && !under(from, "tests") && under(to, "cmd"):
		return "nothing imports the binary"
	}
	return ""
}

func adapterOf(path string) string { return strings.SplitN(rel(path), "/", 3)[1] }

// isFx reports whether path is an fx package: its name ends in "fx"
// (appfx, memoryfx, httpapifx...), the fx docs' convention.
func isFx(path string) bool { return strings.HasSuffix(path, "fx") }

// fxModules are the import paths of fx itself.
var fxModules = []string{"go.uber.org/fx", "go.uber.org/dig"}

// checkFx enforces that only fx packages and cmd import fx (or dig).
func checkFx(t *testing.T, p pkg) {
	t.Helper()
	if under(p.ImportPath, "cmd") || isFx(p.ImportPath) {
		return
	}
	for _, imp := range p.Imports {
		if within(imp, fxModules) {
			t.Errorf("%s imports %s: fx belongs in the xxxfx packages and cmd only", rel(p.ImportPath), imp)
		}
	}
}

// within reports whether path is one of roots or below one.
func within(path string, roots []string) bool {
	for _, r := range roots {
		if path == r || strings.HasPrefix(path, r+"/") {
			return true
		}
	}
	return false
}

// forbiddenInLibrary are the modules a library user must not link by
// importing the library packages: fx, the HTTP framework, the SQL
// toolkits, Docker.
var forbiddenInLibrary = []string{
	"go.uber.org/fx", "go.uber.org/dig", "github.com/danielgtaylor/huma", "github.com/uptrace/bun", "github.com/jackc/pgx",
	"github.com/docker", "github.com/moby", "github.com/testcontainers",
}

// isLibrary reports whether path is a library package: app/... (each use
// case and postaldir), adapters/memory, adapters/fetch/audit (one page's
// analysis in one call), digipin, geo and domain/..., fx packages excepted.
func isLibrary(path string) bool {
	return !isFx(path) && (under(path, "app") || rel(path) == "adapters/memory" || rel(path) == "adapters/fetch/audit" ||
		under(path, "digipin") || under(path, "geo") || under(path, "domain"))
}

// checkLibraryDeps: no library package depends, even indirectly, on fx,
// huma, bun, pgx or Docker.
func checkLibraryDeps(t *testing.T, project []pkg) {
	t.Helper()
	var checked []string
	for _, p := range project {
		if !isLibrary(p.ImportPath) {
			continue
		}
		checked = append(checked, rel(p.ImportPath))
		for _, dep := range p.Deps {
			if within(dep, forbiddenInLibrary) {
				t.Errorf("%s depends on %s: library packages link no fx, huma, bun, pgx or Docker", rel(p.ImportPath), dep)
			}
		}
	}
	for _, want := range []string{"app/directory", "app/geocode", "app/accounts", "app/reports", "app/health", "app/postaldir", "adapters/memory", "adapters/fetch/audit", "digipin", "geo", "domain/postal"} {
		if !slices.Contains(checked, want) {
			t.Errorf("library package %s was not checked (checked: %v)", want, checked)
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
		{"app/directory", "adapters/memory", false},
		{"app/postaldir", "adapters/memory", true},
		{"app/postaldir", "adapters/indiapost/snapshot", true},
		{"app/postaldir", "adapters/memory/memoryfx", false},
		{"app/postaldir", "adapters/sqlite", false},
		{"adapters/sqlite/sqlitefx", "app/appfx", true},
		{"adapters/httpapi/httpapifx", "adapters/httpapi", true},
		{"adapters/httpapi/httpapifx", "adapters/memory/memoryfx", false},
		{"adapters/httpapi", "app", true},
		{"adapters/httpapi", "adapters/memory", false},
		{"adapters/postgres/migrations", "adapters/postgres", true},
		{"adapters/sqlite", "adapters/sqlstore", true},
		{"adapters/sqlite/sqlitefx", "adapters/sqlstore", true},
		{"adapters/postgres", "adapters/sqlstore/dialect", true},
		{"adapters/postgres/postgresfx", "adapters/sqlstore", true},
		{"adapters/sqlstore", "adapters/sqlite", false},
		{"adapters/sqlstore", "adapters/postgres", false},
		{"adapters/sqlstore", "adapters/riverjobs", false},
		{"adapters/sqlstore", "adapters/memory", false},
		{"adapters/memory", "adapters/sqlstore", false},
		{"adapters/redis", "adapters/sqlstore", false},
		{"adapters/riverjobs", "adapters/sqlstore", false},
		{"adapters/httpapi", "adapters/sqlstore", false},
		{"adapters/sqlitex", "adapters/sqlstore", false},
		{"adapters/sqlite", "adapters/sqlstorex", false},
		{"app", "adapters/sqlstore", false},
		{"domain/report", "adapters/sqlstore", false},
		{"adapters/memory", "cmd/pinsight", false},
		{"cmd/pinsight", "adapters/memory", true},
		{"adapters/fetch/audit", "adapters/fetch", true},
		{"adapters/mcp", "app/reports", true},
		{"adapters/mcp", "domain/fault", true},
		{"adapters/mcp", "digipin", true},
		{"adapters/mcp", "adapters/httpapi/middleware", false},
		{"adapters/mcp", "adapters/memory", false},
		{"adapters/mcp", "cmd/pinsight", false},
		{"adapters/mcp/mcpfx", "adapters/mcp", true},
		{"adapters/mcp/mcpfx", "adapters/httpapi/httpapifx", false},
	}
	for _, tt := range tests {
		if got := forbiddenImport(m(tt.from), m(tt.to)) == ""; got != tt.allowed {
			t.Errorf("%s -> %s allowed = %v, want %v", tt.from, tt.to, got, tt.allowed)
		}
	}
	for path, want := range map[string]bool{"app/reports": true, "app/appfx": false, "adapters/memory": true, "adapters/memory/memoryfx": false,
		"adapters/sqlite": false, "adapters/fetch/audit": true, "adapters/fetch": false, "domain/fault": true, "digipin/digipintest": true, "ports": false, "cmd/pinsight": false} {
		if got := isLibrary(m(path)); got != want {
			t.Errorf("isLibrary(%s) = %v, want %v", path, got, want)
		}
	}
	if !within("go.uber.org/fx/fxevent", fxModules) || within("go.uber.org/fxx", fxModules) || !within("github.com/moby/moby/client", forbiddenInLibrary) {
		t.Error("within matches the wrong paths")
	}
}

// mcpSDK are the modules the MCP transport may import beyond the standard
// library and the project: the official SDK and the schema library its
// tool schemas are written in.
var mcpSDK = []string{"github.com/modelcontextprotocol/go-sdk", "github.com/google/jsonschema-go"}

// checkMCPDeps: the MCP transport (adapters/mcp, its fx package aside)
// imports nothing outside the standard library, the project and its SDK.
func checkMCPDeps(t *testing.T, p pkg, standard map[string]bool) {
	t.Helper()
	if !under(p.ImportPath, "adapters/mcp") || isFx(p.ImportPath) {
		return
	}
	for _, imp := range p.Imports {
		if !standard[imp] && !strings.HasPrefix(imp, module) && !within(imp, mcpSDK) {
			t.Errorf("%s imports %s: the MCP transport imports only the project's core and its SDK", rel(p.ImportPath), imp)
		}
	}
}

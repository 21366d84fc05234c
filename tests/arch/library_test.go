package arch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// outsideProgram is a program of another module that uses Pinsight as a
// library: the postal directory in one call, a lookup, the nearest
// offices, a search, a DIGIPIN and a distance.
const outsideProgram = `package main

import (
	"context"
	"fmt"
	"log"

	"github.com/pinsight/pinsight/app/postaldir"
	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/geo"
)

func main() {
	ctx := context.Background()
	dir, err := postaldir.Open(ctx)
	if err != nil {
		log.Fatal(err)
	}
	pin, offices, err := dir.Lookup(ctx, "800001")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("lookup", pin, len(offices) > 0)
	near, err := dir.Nearby(ctx, geo.NearQuery{Point: geo.Point{Lat: 25.61, Lon: 85.14}, RadiusKm: 5, Limit: 3})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("nearby", len(near.Offices), near.WithinRadius)
	found, err := dir.SearchOffices(ctx, "patna", paging.Page{PerPage: 5})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("search", len(found.Items), found.Total > 5)
	code, _ := digipin.Encode(25.61, 85.14)
	fmt.Println("digipin", code, geo.DistanceKm(geo.Point{Lat: 25.61, Lon: 85.14}, geo.Point{Lat: 25.62, Lon: 85.14}) < 2)
}
`

// TestOutsideModule is the library's acceptance test: a module of its own,
// requiring Pinsight through a replace directive, builds and runs offline
// from the module cache, loads the directory in one call, looks up a PIN,
// finds the nearest offices and searches; and its build links no fx, huma,
// bun, pgx or Docker package.
func TestOutsideModule(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goMod := "module example.com/outside\n\ngo 1.26.0\n\nrequire github.com/pinsight/pinsight v0.0.0\n\nreplace github.com/pinsight/pinsight => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"go.mod": goMod, "go.sum": string(sum), "main.go": outsideProgram} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	goCmd := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		// Offline, from the module cache; -mod=mod lets go complete the
		// requirements of the new go.mod without asking anyone.
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local", "GOSUMDB=off")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	out := goCmd("run", ".")
	for _, want := range []string{"lookup 800001 true", "nearby 3 true", "search 5 true", "digipin "} {
		if !strings.Contains(out, want) {
			t.Errorf("the outside program printed %q, want a line with %q", out, want)
		}
	}
	deps := strings.Fields(goCmd("list", "-deps", "."))
	if len(deps) < 20 {
		t.Fatalf("go list -deps found only %v", deps)
	}
	for _, dep := range deps {
		if within(dep, forbiddenInLibrary) {
			t.Errorf("the outside program links %s", dep)
		}
	}
}

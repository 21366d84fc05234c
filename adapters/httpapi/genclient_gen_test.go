package httpapi_test

import (
	"bytes"
	"flag"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
)

var update = flag.Bool("update", false, "rewrite the generated client from the served OpenAPI document")

// genClientFile is the committed client oapi-codegen generates from the
// served /openapi-3.0.json.
const genClientFile = "internal/genclient/client.gen.go"

// TestGeneratedClientIsCurrent regenerates the client with oapi-codegen
// (the module's tool) from the document the server serves, and fails when
// it differs from the committed one: the client the flow test drives is
// the one a user would generate today.
func TestGeneratedClientIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds oapi-codegen")
	}
	h := apitest.NewHandler(t, fullRoutes())
	doc := apitest.GetPage(t, h, "/openapi-3.0.json")
	if doc.Status != http.StatusOK {
		t.Fatalf("GET /openapi-3.0.json = %d", doc.Status)
	}
	dir := t.TempDir()
	spec, out := filepath.Join(dir, "openapi-3.0.json"), filepath.Join(dir, "client.gen.go")
	if err := os.WriteFile(spec, []byte(doc.Body), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "tool", "oapi-codegen", "-generate", "types,client", "-package", "genclient", "-o", out, spec)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("oapi-codegen: %v\n%s", err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(genClientFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(genClientFile)
	if err != nil {
		t.Fatalf("%v (run with -update to generate it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what oapi-codegen generates from the served document: run go test ./adapters/httpapi -run TestGeneratedClientIsCurrent -update", genClientFile)
	}
}

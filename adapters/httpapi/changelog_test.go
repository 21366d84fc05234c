package httpapi_test

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
)

// TestOpenAPIVersionIsChangelogs: info.version of both served documents is
// the newest version CHANGELOG.md describes, so a change to the API cannot
// ship without its entry (or an entry without its version).
func TestOpenAPIVersionIsChangelogs(t *testing.T) {
	b, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("CHANGELOG.md has no '## [x.y.z] - yyyy-mm-dd' heading")
	}
	newest := string(m[1])
	h := apitest.NewHandler(t, fullRoutes())
	for _, path := range []string{"/openapi.json", "/openapi-3.0.json"} {
		var doc struct {
			Info struct {
				Version string `json:"version"`
			} `json:"info"`
		}
		if err := json.Unmarshal([]byte(apitest.GetPage(t, h, path).Body), &doc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if doc.Info.Version != newest {
			t.Errorf("%s info.version = %q, CHANGELOG.md's newest version is %q", path, doc.Info.Version, newest)
		}
	}
}

package httpapi_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
)

// TestDocsAssets: the reference page names only assets the server holds,
// under the base path, serves them (gzipped to clients that take it), and
// answers an unknown name with the error envelope.
func TestDocsAssets(t *testing.T) {
	host, _ := mountedHost(t)
	page := apitest.GetPage(t, host, "/geo/docs")
	if page.Status != http.StatusOK || !strings.Contains(page.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Fatalf("/geo/docs = %d, CSP %q", page.Status, page.Header.Get("Content-Security-Policy"))
	}
	if outside := regexp.MustCompile(`(?:src|href)="(?:https?:)?//[^"]*"`).FindAllString(page.Body, -1); len(outside) > 0 {
		t.Errorf("the page loads from outside the server: %v", outside)
	}
	for _, asset := range []string{"swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css"} {
		if !strings.Contains(page.Body, `"/geo/docs/`+asset+`"`) {
			t.Errorf("the page does not load /geo/docs/%s", asset)
		}
		plain := apitest.GetPage(t, host, "/geo/docs/"+asset)
		zipped := apitest.GetPage(t, host, "/geo/docs/"+asset, "Accept-Encoding", "gzip")
		if plain.Status != http.StatusOK || len(plain.Body) < 10000 || zipped.Header.Get("Content-Encoding") != "gzip" || len(zipped.Body) >= len(plain.Body) {
			t.Errorf("/geo/docs/%s = %d, %d bytes; gzipped %q, %d bytes", asset, plain.Status, len(plain.Body), zipped.Header.Get("Content-Encoding"), len(zipped.Body))
		}
	}
	if res := apitest.Do(t, host, http.MethodGet, "/geo/docs/nothing.js", "", ""); res.Status != http.StatusNotFound || res.Code != "not_found" {
		t.Errorf("/geo/docs/nothing.js = %d %q, want 404 in the envelope", res.Status, res.Code)
	}
}

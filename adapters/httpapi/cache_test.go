package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/memory"
)

// TestCachedAnswers: a repeated postal read is answered from the body
// cache with the same bytes and headers, gzipped from the stored variant
// for a client that takes it; errors are not stored; reloading the
// dataset (a new version) serves the new data at once.
func TestCachedAnswers(t *testing.T) {
	ds, err := loadFixtureDataset()
	if err != nil {
		t.Fatal(err)
	}
	store := memory.NewPostalStore(ds)
	cache := httpapi.NewBodyCache(0)
	routes := apitest.PostalRoutes(store)
	routes.BodyCache = cache
	mux := http.NewServeMux()
	if err := httpapi.Register(httpapi.NewAPI(mux), routes); err != nil {
		t.Fatal(err)
	}
	h := middleware.NewHandler(mux, middleware.Options{})

	const path = "/api/v1/pincodes/110001"
	first := get(h, path)
	if first.Code != http.StatusOK || cache.Bytes() == 0 {
		t.Fatalf("first GET = %d, cache holds %d bytes", first.Code, cache.Bytes())
	}
	second := get(h, path)
	for _, hdr := range []string{"Content-Type", "ETag", "Cache-Control", "X-Content-Type-Options"} {
		if second.Header().Get(hdr) != first.Header().Get(hdr) || first.Header().Get(hdr) == "" {
			t.Errorf("%s: first %q, cached %q", hdr, first.Header().Get(hdr), second.Header().Get(hdr))
		}
	}
	if !bytes.Equal(second.Body.Bytes(), first.Body.Bytes()) {
		t.Fatalf("cached body differs:\n%s\n%s", first.Body, second.Body)
	}
	zipped := get(h, path, "Accept-Encoding", "gzip")
	if zipped.Header().Get("Content-Encoding") != "gzip" || zipped.Header().Get("Content-Length") != "" && zipped.Header().Get("Content-Length") != strconv.Itoa(zipped.Body.Len()) {
		t.Fatalf("gzip answer headers: %v", zipped.Header())
	}
	zr, err := gzip.NewReader(zipped.Body)
	if err != nil {
		t.Fatal(err)
	}
	if plain, _ := io.ReadAll(zr); !bytes.Equal(plain, first.Body.Bytes()) {
		t.Errorf("gzip answer decompresses to something else")
	}
	if nm := get(h, path, "If-None-Match", first.Header().Get("ETag")); nm.Code != http.StatusNotModified {
		t.Errorf("If-None-Match = %d, want 304", nm.Code)
	}
	// Undeclared query parameters name the same entry.
	before := cache.Bytes()
	if again := get(h, path+"?utm=1"); !bytes.Equal(again.Body.Bytes(), first.Body.Bytes()) || cache.Bytes() != before {
		t.Errorf("an undeclared parameter made a new entry (%d -> %d bytes)", before, cache.Bytes())
	}
	if miss := get(h, "/api/v1/pincodes/999999"); miss.Code != http.StatusNotFound || cache.Bytes() != before {
		t.Errorf("a 404 was stored (%d, %d -> %d bytes)", miss.Code, before, cache.Bytes())
	}

	// A new release renames an office: the next answer has the new name.
	renamed, err := loadFixtureDataset()
	if err != nil {
		t.Fatal(err)
	}
	var old string
	for i, o := range renamed.Offices {
		if o.Pincode == "110001" {
			old = o.Name
			renamed.Offices[i].Name = "Renamed Test Office"
			break
		}
	}
	store.Replace(renamed)
	after := get(h, path)
	if after.Code != http.StatusOK || !strings.Contains(after.Body.String(), "Renamed Test Office") || after.Header().Get("ETag") == first.Header().Get("ETag") {
		t.Errorf("after the reload: %d, ETag %q (was %q), renamed office shown: %v (was %q)", after.Code,
			after.Header().Get("ETag"), first.Header().Get("ETag"), strings.Contains(after.Body.String(), "Renamed Test Office"), old)
	}
}

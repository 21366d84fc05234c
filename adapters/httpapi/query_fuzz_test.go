package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/memory"
)

// pathParam matches a {name} segment of an OpenAPI path.
var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// FuzzQueryDecoding sends arbitrary query strings to every GET operation
// (postal routes over the fixture dataset): whatever the query, the answer
// is the envelope with a status below 500, success matching the status.
func FuzzQueryDecoding(f *testing.F) {
	ds, err := loadFixtureDataset()
	if err != nil {
		f.Fatalf("loading the fixture: %v", err)
	}
	mux := http.NewServeMux()
	api := httpapi.NewAPI(mux)
	if err := httpapi.Register(api, apitest.PostalRoutes(memory.NewPostalStore(ds))); err != nil {
		f.Fatal(err)
	}
	h := middleware.NewHandler(mux, middleware.Options{})
	var paths []string
	for p, item := range api.OpenAPI().Paths {
		if item.Get != nil {
			paths = append(paths, pathParam.ReplaceAllString(p, "110001"))
		}
	}
	sort.Strings(paths)
	if len(paths) < 5 {
		f.Fatalf("only %d GET operations", len(paths))
	}
	for _, q := range []string{
		"page=2&per_page=5", "page=922337203685477580&per_page=100", "per_page=0", "page=-1",
		"q=delhi", "q=1100", "q=%00", "q=%zz", "latitude=28.6&longitude=77.2&radius=5&limit=3",
		"latitude=NaN&longitude=Infinity", "latitude=1e309", "point=28.6,%2077.2", "geometry=true",
		"post_office=GPO", "a=1&a=2&a=3", ";;;", "&&&=&", "page=1&page=2",
	} {
		for i := range paths {
			f.Add(uint8(i), q)
		}
	}
	f.Fuzz(func(t *testing.T, route uint8, rawQuery string) {
		path := paths[int(route)%len(paths)]
		target := path + "?" + rawQuery
		if _, err := url.ParseRequestURI(target); err != nil || !printable(rawQuery) {
			return // cannot arrive in a request line
		}
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.URL.RawQuery, req.RequestURI = rawQuery, target
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var env struct {
			Success *bool  `json:"success"`
			Code    string `json:"code"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Success == nil {
			if path == "/openapi.json" || rec.Code < 400 && rec.Header().Get("Content-Type") != "application/json" {
				return // documents and pages, not the API envelope
			}
			t.Fatalf("GET %s = %d, not an envelope: %v %.200s", target, rec.Code, err, rec.Body.String())
		}
		if rec.Code >= 500 || *env.Success != (rec.Code < 400) || rec.Code >= 400 && env.Code == "" {
			t.Fatalf("GET %s = %d success=%v code=%q", target, rec.Code, *env.Success, env.Code)
		}
	})
}

// printable reports whether s has only the bytes a request line can carry.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] == 0x7f || s[i] == '#' {
			return false
		}
	}
	return true
}

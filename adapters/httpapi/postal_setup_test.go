package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/domain/postal"
)

// fixtureDataDir holds the hand-written fixture files of the indiapost
// reader (official names and layouts): the postal endpoints are tested on
// them without the real data.
const fixtureDataDir = "../indiapost/testdata"

// postalHandler builds the production handler serving store.
func postalHandler(store *memory.PostalStore) http.Handler {
	mux := http.NewServeMux()
	if err := httpapi.Register(httpapi.NewAPI(mux), apitest.PostalRoutes(store)); err != nil {
		panic(err)
	}
	return middleware.NewHandler(mux, middleware.Options{})
}

// loadFixtureDataset loads the fixture files (a fresh dataset each time).
func loadFixtureDataset() (*postal.Dataset, error) {
	res, err := indiapost.Load(indiapost.FindFiles(fixtureDataDir, indiapost.Files{}))
	if err != nil {
		return nil, err
	}
	return res.Dataset, nil
}

// fixtureHandler serves the fixture dataset.
func fixtureHandler(t *testing.T) http.Handler {
	t.Helper()
	ds, err := loadFixtureDataset()
	if err != nil {
		t.Fatalf("loading the fixture: %v", err)
	}
	return postalHandler(memory.NewPostalStore(ds))
}

// fullData is the real dataset (the embedded snapshot), loaded once per
// test binary.
var fullData struct {
	once    sync.Once
	ds      *postal.Dataset
	store   *memory.PostalStore
	handler http.Handler
	err     error
}

// loadFull returns the real dataset, its store and a handler serving it.
func loadFull(tb testing.TB) (*postal.Dataset, *memory.PostalStore, http.Handler) {
	tb.Helper()
	fullData.once.Do(func() {
		res, err := indiapost.Load(snapshot.Files())
		if err != nil {
			fullData.err = err
			return
		}
		fullData.ds = res.Dataset
		fullData.store = memory.NewPostalStore(res.Dataset)
		fullData.handler = postalHandler(fullData.store)
	})
	if fullData.err != nil {
		tb.Fatalf("loading the embedded snapshot: %v", fullData.err)
	}
	return fullData.ds, fullData.store, fullData.handler
}

// get sends a GET with optional header pairs and returns the raw recorder
// (for answers without a JSON body, such as 304).
func get(h http.Handler, target string, headers ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// getOK sends a GET that must answer 200 and decodes its data into v.
func getOK(t *testing.T, h http.Handler, target string, v any) apitest.Response {
	t.Helper()
	res := apitest.Do(t, h, http.MethodGet, target, "", "")
	if res.Status != http.StatusOK {
		t.Fatalf("GET %s = %d %s %v, want 200", target, res.Status, res.Message, res.Errors)
	}
	res.Decode(t, v)
	return res
}

// wantError checks a failure envelope's status and code.
// candidateLabels reads the candidates of an ambiguous state or district
// from an error's body, each as postal.Candidate.Label gives it.
func candidateLabels(t *testing.T, res apitest.Response) []string {
	t.Helper()
	var body struct {
		Candidates []postal.Candidate `json:"candidates"` // id, name, state match its fields
	}
	if err := json.Unmarshal(res.Body, &body); err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, c := range body.Candidates {
		out = append(out, c.Label())
	}
	return out
}

func wantError(t *testing.T, h http.Handler, method, target, contentType, body string, status int, code string) apitest.Response {
	t.Helper()
	res := apitest.Do(t, h, method, target, contentType, body)
	if res.Status != status || res.Code != code || res.Message == "" {
		t.Fatalf("%s %s = %d %q %q, want %d %q with a message", method, target, res.Status, res.Code, res.Message, status, code)
	}
	return res
}

package httpapitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/app/health"
)

// The account HostileRoutes works as, and the page it analyses.
const (
	hostileEmail    = "hostile@example.com"
	hostilePassword = "correct horse"
	hostileSite     = "https://a.com/"
)

// requiredOperations are operations of every group the API must register
// for HostileRoutes to count as covering it (others are covered too).
var requiredOperations = []string{
	"GET /healthz", "GET /api/v1/dataset",
	"GET /api/v1/pincodes/{pincode}", "GET /api/v1/pincodes/search", "POST /api/v1/pincodes/batch",
	"GET /api/v1/pincodes/nearby", "GET /api/v1/distance", "GET /api/v1/states/{state}", "GET /api/v1/districts/{district}/pincodes",
	"GET /api/v1/villages/search", "POST /api/v1/digipin/encode", "GET /api/v1/digipin/nearest", "GET /api/v1/digipin/{code}/offices",
	"POST /api/v1/register", "POST /api/v1/login", "DELETE /api/v1/account/keys/{id}",
	"GET /api/v1/reports", "POST /api/v1/reports", "GET /api/v1/reports/{id}", "PUT /api/v1/reports/{id}",
	"DELETE /api/v1/reports/{id}", "GET /api/v1/projects", "DELETE /api/v1/projects/{project}",
	"GET /api/v1/post-offices/{id}", "GET /api/v1/post-offices/{id}/reviews", "PUT /api/v1/post-offices/{id}/review",
	"DELETE /api/v1/post-offices/{id}/review", "PUT /api/v1/post-offices/{id}/like", "DELETE /api/v1/post-offices/{id}/like",
	"GET /api/v1/account/reviews",
}

// crawlOperations are the crawl operations HostileRoutes must cover when
// Routes.Crawls is set.
var crawlOperations = []string{
	"POST /api/v1/crawls", "GET /api/v1/crawls", "GET /api/v1/crawls/{id}", "POST /api/v1/crawls/{id}/cancel",
	"DELETE /api/v1/crawls/{id}", "GET /api/v1/crawls/{id}/pages", "GET /api/v1/crawls/{id}/pages/{page}",
	"GET /api/v1/crawls/{id}/issues", "GET /api/v1/crawls/{id}/export", "GET /api/v1/crawls/{id}/diff",
	"PATCH /api/v1/crawls/{id}",
}

// HostileRoutes registers every operation of r on the production API and
// handler and runs Hostile over all of them, then HostilePage over the
// public report page. r needs Directory, Geocoder, Accounts, Reports,
// Projects and Reviews (whose write quota should let the run through), and
// covers the crawl operations too when r.Crawls is set (its active-crawl
// cap and page quota should let every creation through) and the release
// changes when r.Releases is set; the
// valid values come from porttest.PostalDataset (PIN 800001 in Patna,
// Bihar), and the analyser must be able to analyse https://a.com/ (any
// path). Afterwards the caller's reports and projects must still list.
func HostileRoutes(t *testing.T, r httpapi.Routes) {
	t.Helper()
	if r.Directory == nil || r.Geocoder == nil || r.Accounts == nil || r.Reports == nil || r.Projects == nil || r.Reviews == nil {
		t.Fatal("HostileRoutes needs the directory, geocoder, account, report, project and review use cases")
	}
	if r.Health == nil {
		r.Health = health.New(nil)
	}
	mux := http.NewServeMux()
	api := httpapi.NewAPI(mux)
	if err := httpapi.Register(api, r); err != nil {
		t.Fatal(err)
	}
	h := middleware.NewHandler(mux, middleware.Options{Authenticate: r.Accounts.Authenticate})

	if status, body := call(h, http.MethodPost, "/api/v1/register", "", map[string]any{"email": hostileEmail, "password": hostilePassword}); status != http.StatusCreated {
		t.Fatalf("register = %d %s", status, body)
	}
	token := func() string { return login(t, h) }
	key := token()
	var registrations atomic.Int64
	valid := func(op *huma.Operation) map[string]any {
		v := validValues(op)
		switch {
		case op.Path == "/api/v1/register":
			v["email"] = func() any { return fmt.Sprintf("h%d@example.com", registrations.Add(1)) }
		case strings.HasPrefix(op.Path, "/api/v1/post-offices/"):
			v["id"] = 1 // Patna GPO, 800001
		case strings.HasPrefix(op.Path, "/api/v1/reports/"):
			v["id"] = createReport(t, h, key).ID // fresh: an earlier operation may have changed or deleted the last one
		case strings.HasPrefix(op.Path, "/api/v1/crawls"):
			v["sort_by"], v["what"], v["format"], v["type"], v["severity"] = "score", "pages", "csv", "broken_link", "high"
			if strings.HasPrefix(op.Path, "/api/v1/crawls/") {
				v["id"] = createCrawl(t, h, key)
			}
		}
		return v
	}
	covered := Hostile(t, api, h, token, valid)
	required := requiredOperations
	if r.Crawls != nil {
		required = append(slices.Clone(required), crawlOperations...)
	}
	if r.Releases != nil {
		required = append(slices.Clone(required), "GET /api/v1/dataset/changes")
	}
	for _, op := range required {
		if !slices.Contains(covered, op) {
			t.Errorf("%s was not registered, so not covered (covered: %v)", op, covered)
		}
	}

	created := createReport(t, h, key)
	id := created.ID
	HostilePage(t, h, "/r/{token}", created.ShareURL, "password")

	key = login(t, h)
	if status, body := call(h, http.MethodPut, "/api/v1/post-offices/1/review", key, map[string]any{"rating": 4, "title": "<b>t</b>"}); status >= 300 {
		t.Errorf("PUT review after hostile input = %d %s", status, body)
	}
	for _, path := range []string{"/api/v1/reports", "/api/v1/projects", "/api/v1/reports/" + strconv.FormatInt(id, 10),
		"/api/v1/account/reviews", "/api/v1/post-offices/1/reviews", "/api/v1/post-offices/1", "/api/v1/pincodes/800001"} {
		if status, body := call(h, http.MethodGet, path, key, nil); status != http.StatusOK {
			t.Errorf("GET %s after hostile input = %d %s", path, status, body)
		}
	}
}

// validValues are well-formed values for every parameter and property
// name the API uses, from porttest.PostalDataset.
func validValues(op *huma.Operation) map[string]any {
	v := map[string]any{
		"pincode": "800001", "post_office": "Patna GPO", "state": "BIHAR", "district": "PATNA", "q": "Patna",
		"latitude": 25.61, "longitude": 85.14, "point": "25.61, 85.14", "radius": 10, "limit": 5,
		"page": 1, "per_page": 10, "code": "39J-49L-L8T4", "digipin": "39J-49L-L8T4", "geometry": true, "precision": 5,
		"pincodes": []string{"800001", "110001"},
		"email":    hostileEmail, "password": hostilePassword, "name": "hostile test",
		"url": hostileSite, "privacy": 2, "results": 1, "project": "a.com",
		"search": "a.com", "search_by": "url", "result": "decent", "sort_by": "id", "sort": "asc",
		"rating": 4, "title": "Quick service", "text": "Friendly staff.\nOpen early.",
	}
	switch op.Path {
	case "/api/v1/digipin/encode/batch":
		v["items"] = []any{map[string]any{"latitude": 25.61, "longitude": 85.14}}
	case "/api/v1/digipin/decode/batch":
		v["items"] = []string{"39J-49L-L8T4"}
	case "/api/v1/digipin/{code}/offices":
		v["code"] = "235" // Patna: offices of two pincodes
	case "/api/v1/distance":
		v["from"], v["to"] = "800001", "39J-49L-L8T4"
	case "/api/v1/projects", "/api/v1/projects/{project}":
		v["search_by"], v["sort_by"] = "project", "project"
	case "/api/v1/post-offices/{id}/reviews", "/api/v1/account/reviews":
		v["sort_by"] = "rating"
	}
	return v
}

// login logs in as the hostile account and returns a new key.
func login(t *testing.T, h http.Handler) string {
	t.Helper()
	status, body := call(h, http.MethodPost, "/api/v1/login", "", map[string]any{"email": hostileEmail, "password": hostilePassword})
	var env struct {
		Data wire.TokenData `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil || status != http.StatusOK || env.Data.Token == "" {
		t.Fatalf("login = %d %s", status, body)
	}
	return env.Data.Token
}

// createReport analyses the hostile site as a password-protected report
// and returns its id.
func createReport(t *testing.T, h http.Handler, key string) wire.ReportData {
	t.Helper()
	status, body := call(h, http.MethodPost, "/api/v1/reports", key, map[string]any{"url": hostileSite, "privacy": 2, "password": "open sesame"})
	var env struct {
		Data wire.ReportData `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil || status != http.StatusCreated || env.Data.ID == 0 {
		t.Fatalf("create report = %d %s", status, body)
	}
	return env.Data
}

// createCrawl queues a crawl of the hostile site and returns its id.
func createCrawl(t *testing.T, h http.Handler, key string) int64 {
	t.Helper()
	status, body := call(h, http.MethodPost, "/api/v1/crawls", key, map[string]any{"url": hostileSite, "max_pages": 10})
	var env struct {
		Data struct{ ID int64 } `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil || status != http.StatusAccepted || env.Data.ID == 0 {
		t.Fatalf("create crawl = %d %s", status, body)
	}
	return env.Data.ID
}

// call sends a JSON request (body nil: none) with an optional Bearer key.
func call(h http.Handler, method, path, key string, body map[string]any) (int, []byte) {
	var raw []byte
	if body != nil {
		raw, _ = json.Marshal(body)
	}
	req := httptest.NewRequest(method, path, strings.NewReader(string(raw)))
	if body != nil {
		req.Header.Set("Content-Type", jsonType)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

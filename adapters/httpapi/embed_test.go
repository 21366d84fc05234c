package httpapi_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
)

// mountedHost is a host program's mux serving a page of its own at / and
// the whole API (fixture directory, accounts, reports) under /geo.
func mountedHost(t *testing.T) (*http.ServeMux, *apitest.FakeAnalyser) {
	t.Helper()
	ds, err := loadFixtureDataset()
	if err != nil {
		t.Fatal(err)
	}
	routes := apitest.PostalRoutes(memory.NewPostalStore(ds))
	an, store := apitest.NewFakeAnalyser(), memory.NewReportStore()
	routes.Accounts = accounts.New(memory.NewAccountStore(), apitest.Passwords)
	routes.Reports, routes.Projects = reports.New(store, an, apitest.Passwords), reports.NewProjects(store)
	routes.Share = sharepage.Options{CookieKey: []byte("test key")}
	api, err := httpapi.Handler(httpapi.HandlerOptions{BasePath: "/geo", Routes: routes})
	if err != nil {
		t.Fatal(err)
	}
	host := http.NewServeMux()
	host.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("host home")) })
	host.Handle("/geo/", api)
	return host, an
}

// TestHandlerUnderBasePath: the API mounted under /geo on a host's mux
// serves its operations, OpenAPI document (listing server /geo) and docs
// (loading that document) under /geo, and its report links include /geo;
// the host keeps its own routes.
func TestHandlerUnderBasePath(t *testing.T) {
	host, _ := mountedHost(t)
	res := apitest.Do(t, host, http.MethodGet, "/geo/api/v1/pincodes/110001", "", "")
	var pin httpapi.PincodeData
	res.Decode(t, &pin)
	if res.Status != http.StatusOK || pin.Pincode != "110001" || len(pin.PostOffices) == 0 {
		t.Fatalf("GET /geo/api/v1/pincodes/110001 = %d %+v", res.Status, pin)
	}
	if res := apitest.Do(t, host, http.MethodGet, "/geo/api/v1/pincodes/999999", "", ""); res.Status != http.StatusNotFound || res.Code != "not_found" {
		t.Errorf("unknown PIN under /geo = %d %q, want the 404 envelope", res.Status, res.Code)
	}
	if p := apitest.GetPage(t, host, "/"); p.Status != http.StatusOK || p.Body != "host home" {
		t.Errorf("host's own page = %d %q", p.Status, p.Body)
	}
	if p := apitest.GetPage(t, host, "/api/v1/pincodes/110001"); p.Status != http.StatusNotFound {
		t.Errorf("the API outside its base path = %d, want the host's 404", p.Status)
	}

	doc := apitest.GetPage(t, host, "/geo/openapi.json")
	var spec struct {
		Servers []struct{ URL string } `json:"servers"`
		Paths   map[string]any         `json:"paths"`
	}
	if err := json.Unmarshal([]byte(doc.Body), &spec); err != nil || doc.Status != http.StatusOK {
		t.Fatalf("/geo/openapi.json = %d %v", doc.Status, err)
	}
	if len(spec.Servers) != 1 || spec.Servers[0].URL != "/geo" {
		t.Errorf("servers = %+v, want one, /geo", spec.Servers)
	}
	if _, found := spec.Paths["/api/v1/pincodes/{pincode}"]; !found {
		t.Errorf("paths are not relative to the server: %d paths, no /api/v1/pincodes/{pincode}", len(spec.Paths))
	}

	docs := apitest.GetPage(t, host, "/geo/docs")
	link := regexp.MustCompile(`"swaggerJsonUrl":"([^"]+)"`).FindStringSubmatch(docs.Body)
	if docs.Status != http.StatusOK || link == nil || !strings.HasPrefix(link[1], "/geo/openapi.") {
		t.Fatalf("/geo/docs = %d, document link %q, want /geo/openapi.*", docs.Status, link)
	}
	if p := apitest.GetPage(t, host, link[1]); p.Status != http.StatusOK || !strings.Contains(p.Body, "Pinsight API") {
		t.Errorf("the document /geo/docs loads, %s = %d", link[1], p.Status)
	}
}

// TestHandlerReportPagesUnderBasePath: share_url, the password form's
// redirect and its cookie all carry the base path.
func TestHandlerReportPagesUnderBasePath(t *testing.T) {
	host, _ := mountedHost(t)
	res := apitest.Do(t, host, http.MethodPost, "/geo/api/v1/register", apitest.JSONType, `{"email":"ada@example.com","password":"correct horse"}`)
	if res.Status != http.StatusCreated {
		t.Fatalf("register = %d %s", res.Status, res.Message)
	}
	var tok httpapi.TokenData
	res = apitest.Do(t, host, http.MethodPost, "/geo/api/v1/login", apitest.JSONType, `{"email":"ada@example.com","password":"correct horse"}`)
	res.Decode(t, &tok)
	res = apitest.Do(t, host, http.MethodPost, "/geo/api/v1/reports", apitest.FormType, "url=https://alpha.com/&privacy=2&password=open+sesame", apitest.Bearer(tok.Token)...)
	var rep httpapi.ReportData
	res.Decode(t, &rep)
	if res.Status != http.StatusCreated || !strings.HasPrefix(rep.ShareURL, "/geo/r/") {
		t.Fatalf("create = %d, share_url %q, want /geo/r/...", res.Status, rep.ShareURL)
	}
	if p := apitest.GetPage(t, host, rep.ShareURL); p.Status != http.StatusOK || !strings.Contains(p.Body, "password") {
		t.Fatalf("GET %s = %d, want the password form", rep.ShareURL, p.Status)
	}
	p := apitest.PostPassword(host, rep.ShareURL, "open+sesame", "192.0.2.1:1")
	cookie := (&http.Response{Header: p.Header}).Cookies()
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != rep.ShareURL || len(cookie) != 1 || cookie[0].Path != rep.ShareURL {
		t.Fatalf("password = %d, Location %q, cookies %v, want 303 to %s with a cookie for that path", p.Status, p.Header.Get("Location"), cookie, rep.ShareURL)
	}
	if p := apitest.GetPage(t, host, rep.ShareURL, "Cookie", cookie[0].Name+"="+cookie[0].Value); p.Status != http.StatusOK || !strings.Contains(p.Body, "alpha.com") {
		t.Errorf("page with the cookie = %d, want the report", p.Status)
	}
}

func TestHandlerRejectsBadBasePath(t *testing.T) {
	for _, base := range []string{"geo", "/geo/", "/a//b", "/a/../b", "/a b", "/a?b"} {
		if _, err := httpapi.Handler(httpapi.HandlerOptions{BasePath: base}); err == nil {
			t.Errorf("base path %q accepted", base)
		}
	}
	for _, base := range []string{"", "/", "/geo", "/v2/geo"} {
		if _, err := httpapi.Handler(httpapi.HandlerOptions{BasePath: base}); err != nil {
			t.Errorf("base path %q: %v", base, err)
		}
	}
}

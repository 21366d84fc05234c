package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
)

// TestReportsIsolation: a second user sees none of the first user's data,
// through any endpoint, and cannot change it.
func TestReportsIsolation(t *testing.T) {
	s := apitest.NewSiteServer(t)
	ada := apitest.Login(t, s.H, "ada@example.com")
	bob := apitest.Login(t, s.H, "bob@example.com")
	pub := s.CreateReport(t, ada, "url=https://alpha.com/&privacy=0")
	priv := s.CreateReport(t, ada, "url=https://alpha.com/p")
	prot := s.CreateReport(t, ada, "url=https://alpha.com/q&privacy=2&password=open+sesame")
	calls := s.Analyser.Calls()
	for _, r := range []int64{pub.ID, priv.ID, prot.ID} {
		for _, req := range []struct{ method, ctype, body string }{
			{http.MethodGet, "", ""},
			{http.MethodPut, apitest.FormType, "privacy=0"},
			{http.MethodPut, apitest.FormType, "results=1"},
			{http.MethodPut, apitest.JSONType, `{"privacy":2,"password":"mine mine mine"}`},
			{http.MethodDelete, "", ""},
		} {
			res := apitest.Do(t, s.H, req.method, apitest.IDPath(r), req.ctype, req.body, apitest.Bearer(bob)...)
			if res.Status != 404 || res.Code != "not_found" || strings.Contains(string(res.Data), "alpha") {
				t.Errorf("bob %s report %d = %d %q", req.method, r, res.Status, res.Code)
			}
		}
	}
	if s.Analyser.Calls() != calls {
		t.Error("bob's results=1 ran an analysis of ada's report")
	}
	for _, q := range []string{"", "project=alpha.com", "search=alpha", "result=decent", "per_page=100"} {
		if l := s.ListReports(t, bob, q); l.Meta.Total != 0 || len(l.Reports) != 0 {
			t.Errorf("bob's list ?%s = %+v", q, l)
		}
	}
	res := apitest.Do(t, s.H, http.MethodGet, "/api/v1/projects?search=alpha", "", "", apitest.Bearer(bob)...)
	if res.Status != 200 || strings.Contains(string(res.Data), "alpha") {
		t.Errorf("bob's projects = %d %s", res.Status, res.Data)
	}
	if res := apitest.Do(t, s.H, http.MethodDelete, "/api/v1/projects/alpha.com", "", "", apitest.Bearer(bob)...); res.Status != 404 {
		t.Errorf("bob deletes ada's project = %d", res.Status)
	}
	// The public page: bob's own key opens none of ada's non-public reports.
	for _, r := range []httpapi.ReportData{priv, prot} {
		page := apitest.GetPage(t, s.H, r.ShareURL, "Authorization", "Bearer "+bob)
		if strings.Contains(page.Body, "alpha.com") || (r.ID == priv.ID && page.Status != 404) {
			t.Errorf("bob's key on ada's page %d = %d", r.ID, page.Status)
		}
	}
	for _, r := range []httpapi.ReportData{priv, prot} {
		if page := apitest.GetPage(t, s.H, r.ShareURL, "Authorization", "Bearer "+ada); page.Status != 200 || !strings.Contains(page.Body, r.URL) {
			t.Errorf("ada's key on her page %d (privacy %d) = %d", r.ID, r.Privacy, page.Status)
		}
	}
	// Ada's data is intact.
	if l := s.ListReports(t, ada, ""); l.Meta.Total != 3 {
		t.Errorf("ada has %d reports after bob's attempts", l.Meta.Total)
	}
	res = apitest.Do(t, s.H, http.MethodGet, apitest.IDPath(prot.ID), "", "", apitest.Bearer(ada)...)
	if res.Status != 200 || !strings.Contains(string(res.Data), `"privacy":2`) {
		t.Errorf("ada's protected report = %d %s", res.Status, res.Data)
	}
}

package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
)

// TestReportsIsolation: a second user sees none of the first user's data,
// through any endpoint, and cannot change it.
func TestReportsIsolation(t *testing.T) {
	s := newSiteServer(t)
	ada := login(t, s.h, "ada@example.com")
	bob := login(t, s.h, "bob@example.com")
	pub := s.createReport(t, ada, "url=https://alpha.com/&privacy=0")
	priv := s.createReport(t, ada, "url=https://alpha.com/p")
	prot := s.createReport(t, ada, "url=https://alpha.com/q&privacy=2&password=open+sesame")
	calls := s.analyser.calls
	for _, r := range []int64{pub.ID, priv.ID, prot.ID} {
		for _, req := range []struct{ method, ctype, body string }{
			{http.MethodGet, "", ""},
			{http.MethodPut, formType, "privacy=0"},
			{http.MethodPut, formType, "results=1"},
			{http.MethodPut, jsonType, `{"privacy":2,"password":"mine mine mine"}`},
			{http.MethodDelete, "", ""},
		} {
			res := do(t, s.h, req.method, idPath(r), req.ctype, req.body, bearer(bob)...)
			if res.Status != 404 || res.Code != "not_found" || strings.Contains(string(res.Data), "alpha") {
				t.Errorf("bob %s report %d = %d %q", req.method, r, res.Status, res.Code)
			}
		}
	}
	if s.analyser.calls != calls {
		t.Error("bob's results=1 ran an analysis of ada's report")
	}
	for _, q := range []string{"", "project=alpha.com", "search=alpha", "result=decent", "per_page=100"} {
		if l := s.listReports(t, bob, q); l.Meta.Total != 0 || len(l.Reports) != 0 {
			t.Errorf("bob's list ?%s = %+v", q, l)
		}
	}
	res := do(t, s.h, http.MethodGet, "/api/v1/projects?search=alpha", "", "", bearer(bob)...)
	if res.Status != 200 || strings.Contains(string(res.Data), "alpha") {
		t.Errorf("bob's projects = %d %s", res.Status, res.Data)
	}
	if res := do(t, s.h, http.MethodDelete, "/api/v1/projects/alpha.com", "", "", bearer(bob)...); res.Status != 404 {
		t.Errorf("bob deletes ada's project = %d", res.Status)
	}
	// The public page: bob's own key opens none of ada's non-public reports.
	for _, r := range []httpapi.ReportData{priv, prot} {
		page := getPage(t, s.h, r.ShareURL, "Authorization", "Bearer "+bob)
		if strings.Contains(page.body, "alpha.com") || (r.ID == priv.ID && page.status != 404) {
			t.Errorf("bob's key on ada's page %d = %d", r.ID, page.status)
		}
	}
	for _, r := range []httpapi.ReportData{priv, prot} {
		if page := getPage(t, s.h, r.ShareURL, "Authorization", "Bearer "+ada); page.status != 200 || !strings.Contains(page.body, r.URL) {
			t.Errorf("ada's key on her page %d (privacy %d) = %d", r.ID, r.Privacy, page.status)
		}
	}
	// Ada's data is intact.
	if l := s.listReports(t, ada, ""); l.Meta.Total != 3 {
		t.Errorf("ada has %d reports after bob's attempts", l.Meta.Total)
	}
	res = do(t, s.h, http.MethodGet, idPath(prot.ID), "", "", bearer(ada)...)
	if res.Status != 200 || !strings.Contains(string(res.Data), `"privacy":2`) {
		t.Errorf("ada's protected report = %d %s", res.Status, res.Data)
	}
}

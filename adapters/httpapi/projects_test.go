package httpapi_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
)

func TestProjectsContract(t *testing.T) {
	s := apitest.NewSiteServer(t)
	ada := apitest.Login(t, s.H, "ada@example.com")
	s.Analyser.Set("https://www.alpha.com/a", 90)
	s.Analyser.Set("http://alpha.com/b", 70)
	s.Analyser.Set("https://sub.alpha.com/", 30)
	s.Analyser.Set("https://beta.org/", 80)
	for _, u := range []string{"https://www.alpha.com/a", "https://beta.org/", "http://alpha.com/b", "https://sub.alpha.com/"} {
		s.CreateReport(t, ada, "url="+u)
	}
	list := func(query string) httpapi.ProjectsData {
		t.Helper()
		res := apitest.Do(t, s.H, http.MethodGet, "/api/v1/projects?"+query, "", "", apitest.Bearer(ada)...)
		if res.Status != 200 {
			t.Fatalf("projects ?%s = %d %v", query, res.Status, res.Errors)
		}
		var d httpapi.ProjectsData
		res.Decode(t, &d)
		return d
	}
	names := func(d httpapi.ProjectsData) []string {
		out := []string{}
		for _, p := range d.Projects {
			out = append(out, p.Project)
		}
		return out
	}
	all := list("sort_by=project&sort=asc")
	if want := (httpapi.Meta{Total: 3, PerPage: 10, CurrentPage: 1, LastPage: 1}); all.Meta != want {
		t.Errorf("meta = %+v", all.Meta)
	}
	// alpha.com: (90 + 70) / 2 = 80, good; the created_at of its first report.
	if p := all.Projects[0]; p.Project != "alpha.com" || p.Reports != 2 || p.Score != 80 || p.Result != "good" || p.CreatedAt.IsZero() {
		t.Errorf("alpha.com = %+v", p)
	}
	if p := all.Projects[2]; p.Project != "sub.alpha.com" || p.Reports != 1 || p.Score != 30 || p.Result != "bad" {
		t.Errorf("sub.alpha.com = %+v", p)
	}
	tests := []struct {
		query string
		want  []string
	}{
		{"", []string{"sub.alpha.com", "beta.org", "alpha.com"}},
		{"sort_by=created_at&sort=asc", []string{"alpha.com", "beta.org", "sub.alpha.com"}},
		{"sort_by=project&sort=desc", []string{"sub.alpha.com", "beta.org", "alpha.com"}},
		{"search=ALPHA&search_by=project", []string{"sub.alpha.com", "alpha.com"}},
		{"search=zzz", []string{}},
		{"per_page=25&page=2", []string{}},
	}
	for _, tt := range tests {
		if got := names(list(tt.query)); !slices.Equal(got, tt.want) {
			t.Errorf("?%s = %v, want %v", tt.query, got, tt.want)
		}
	}
	for _, bad := range []struct{ query, field string }{
		{"per_page=5", "per_page"}, {"sort_by=id", "sort_by"}, {"sort=sideways", "sort"}, {"search_by=url", "search_by"}, {"page=0", "page"},
	} {
		res := apitest.Do(t, s.H, http.MethodGet, "/api/v1/projects?"+bad.query, "", "", apitest.Bearer(ada)...)
		if res.Status != 422 || len(res.Errors[bad.field]) == 0 {
			t.Errorf("?%s = %d %v, want 422 on %s", bad.query, res.Status, res.Errors, bad.field)
		}
	}
	res := apitest.Do(t, s.H, http.MethodDelete, "/api/v1/projects/WWW.alpha.com", "", "", apitest.Bearer(ada)...)
	if res.Status != 200 || string(res.Data) != `{"project":"alpha.com","deleted":true,"reports_deleted":2}` {
		t.Errorf("delete project = %d %s", res.Status, res.Data)
	}
	if res := apitest.Do(t, s.H, http.MethodDelete, "/api/v1/projects/alpha.com", "", "", apitest.Bearer(ada)...); res.Status != 404 || res.Code != "not_found" {
		t.Errorf("second delete = %d", res.Status)
	}
	if got := s.ListReports(t, ada, "project=alpha.com").Meta.Total; got != 0 {
		t.Errorf("%d alpha.com reports survived", got)
	}
	if got := s.ListReports(t, ada, "").Meta.Total; got != 2 {
		t.Errorf("%d reports left, want 2 (sub.alpha.com is another project)", got)
	}
	if res := apitest.Do(t, s.H, http.MethodGet, "/api/v1/projects", "", ""); res.Status != 401 || res.Header.Get("WWW-Authenticate") == "" {
		t.Errorf("projects without a key = %d", res.Status)
	}
}

package httpapi_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
)

// TestReportsContract walks the seed contract: create reports for several
// hosts, every list parameter and the combinations that matter, fetch,
// update privacy, password and results, delete.
func TestReportsContract(t *testing.T) {
	s := apitest.NewSiteServer(t)
	ada := apitest.Login(t, s.H, "ada@example.com")
	s.Analyser.Set("https://www.alpha.com/a", 90)
	s.Analyser.Set("http://alpha.com/b", 70)
	s.Analyser.Set("https://sub.alpha.com/", 30)
	s.Analyser.Set("https://beta.org/x", 80)
	s.Analyser.Set("https://gamma.net/", 50)

	a := s.CreateReport(t, ada, "url=https%3A%2F%2Fwww.alpha.com%2Fa")
	if a.ID == 0 || a.URL != "https://www.alpha.com/a" || a.Project != "alpha.com" || a.Score != 90 || a.Result != "good" ||
		a.Privacy != 1 || a.HasPassword || len(a.Results.SEO) == 0 || a.Results.Security == nil || a.GeneratedAt.IsZero() {
		t.Fatalf("created = %+v", a)
	}
	res := apitest.Do(t, s.H, http.MethodPost, "/api/v1/reports", apitest.JSONType, `{"url":"http://alpha.com/b","privacy":0}`, apitest.Bearer(ada)...)
	var b httpapi.ReportData
	res.Decode(t, &b)
	if res.Status != 201 || b.Privacy != 0 || b.Project != "alpha.com" || b.Result != "decent" || b.ID <= a.ID {
		t.Fatalf("JSON create = %d %+v", res.Status, b)
	}
	c := s.CreateReport(t, ada, "url=https://sub.alpha.com/")
	res = apitest.Do(t, s.H, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://beta.org/x&privacy=2&password=open+sesame", apitest.Bearer(ada)...)
	if res.Status != 201 || !strings.Contains(string(res.Data), `"has_password":true`) || strings.Contains(string(res.Data), "sesame") || strings.Contains(string(res.Data), "argon") {
		t.Fatalf("create with password = %d %s", res.Status, res.Data)
	}
	var d httpapi.ReportData
	res.Decode(t, &d)
	e := s.CreateReport(t, ada, "url=https://gamma.net/&privacy=1&password=")
	ids := func(list httpapi.ReportsData) []int64 {
		out := []int64{}
		for _, r := range list.Reports {
			out = append(out, r.ID)
		}
		return out
	}

	t.Run("create errors", func(t *testing.T) {
		s.Analyser.SetDown("down.test")
		tests := []struct {
			name, ctype, body string
			status            int
			field             string
		}{
			{"no url", apitest.FormType, "privacy=1", 400, "url"},
			{"empty body", apitest.JSONType, `{}`, 400, "url"},
			{"malformed JSON", apitest.JSONType, `{"url":`, 400, "body"},
			{"ftp", apitest.FormType, "url=ftp://a.com", 422, "url"},
			{"no scheme", apitest.JSONType, `{"url":"alpha.com"}`, 422, "url"},
			{"too long", apitest.JSONType, `{"url":"http://a.com/` + strings.Repeat("a", 2048) + `"}`, 422, "url"},
			{"privacy 3", apitest.FormType, "url=http://a.com&privacy=3", 422, "privacy"},
			{"privacy text", apitest.FormType, "url=http://a.com&privacy=public", 422, "privacy"},
			{"privacy 2 without password", apitest.FormType, "url=http://a.com&privacy=2", 422, "password"},
			{"password with privacy 1", apitest.FormType, "url=http://a.com&privacy=1&password=x", 422, "password"},
			{"password without privacy", apitest.JSONType, `{"url":"http://a.com","password":"x"}`, 422, "password"},
			{"password of 258 bytes", apitest.JSONType, `{"url":"http://a.com","privacy":2,"password":"` + strings.Repeat("pq", 129) + `"}`, 422, "password"},
			{"password of 1 character", apitest.JSONType, `{"url":"http://a.com","privacy":2,"password":"p"}`, 422, "password"},
			{"unreachable", apitest.FormType, "url=http://down.test/", 422, "url"},
			{"xml", "application/xml", "<url/>", 415, ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := apitest.Do(t, s.H, http.MethodPost, "/api/v1/reports", tt.ctype, tt.body, apitest.Bearer(ada)...)
				if res.Status != tt.status || (tt.field != "" && len(res.Errors[tt.field]) == 0) {
					t.Fatalf("= %d %q %v, want %d on %q", res.Status, res.Code, res.Errors, tt.status, tt.field)
				}
			})
		}
		// An enum's message lists its values plainly, not as one quoted string.
		res := apitest.Do(t, s.H, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=http://a.com&privacy=3", apitest.Bearer(ada)...)
		if got := res.Errors["privacy"]; len(got) != 1 || got[0] != "expected one of: 0, 1, 2" {
			t.Errorf("privacy=3 errors = %q, want [\"expected one of: 0, 1, 2\"]", got)
		}
		s.Analyser.SetBusy(true)
		res = apitest.Do(t, s.H, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=http://a.com", apitest.Bearer(ada)...)
		s.Analyser.SetBusy(false)
		if res.Status != 503 || res.Code != "unavailable" || res.Header.Get("Retry-After") == "" {
			t.Errorf("busy = %d %q Retry-After %q", res.Status, res.Code, res.Header.Get("Retry-After"))
		}
		if got := s.ListReports(t, ada, "").Meta.Total; got != 5 {
			t.Errorf("failed creates stored reports: total %d", got)
		}
	})

	t.Run("list", func(t *testing.T) {
		all := s.ListReports(t, ada, "")
		if want := (httpapi.Meta{Total: 5, PerPage: 10, CurrentPage: 1, LastPage: 1}); all.Meta != want {
			t.Errorf("meta = %+v, want %+v", all.Meta, want)
		}
		if strings.Contains(all.Reports[0].URL, "gamma") == false {
			t.Errorf("default order starts with %s, want the newest", all.Reports[0].URL)
		}
		tests := []struct {
			query string
			want  []int64
		}{
			{"", []int64{e.ID, d.ID, c.ID, b.ID, a.ID}},
			{"sort=asc", []int64{a.ID, b.ID, c.ID, d.ID, e.ID}},
			{"sort_by=id&sort=desc&per_page=25", []int64{e.ID, d.ID, c.ID, b.ID, a.ID}},
			{"sort_by=result&sort=desc", []int64{a.ID, d.ID, b.ID, e.ID, c.ID}},
			{"sort_by=result&sort=asc", []int64{c.ID, e.ID, b.ID, d.ID, a.ID}},
			{"sort_by=url&sort=asc", []int64{b.ID, d.ID, e.ID, c.ID, a.ID}},
			{"sort_by=generated_at&sort=asc", []int64{a.ID, b.ID, c.ID, d.ID, e.ID}},
			{"search=alpha.com", []int64{c.ID, b.ID, a.ID}},
			{"search=https://alpha.com/a&search_by=url", []int64{a.ID}},
			{"search=WWW.ALPHA.COM/B", []int64{b.ID}},
			{"search=nothing-like-it", []int64{}},
			{"project=alpha.com", []int64{b.ID, a.ID}},
			{"project=www.Alpha.com&sort=asc", []int64{a.ID, b.ID}},
			{"project=sub.alpha.com", []int64{c.ID}},
			{"result=good", []int64{d.ID, a.ID}},
			{"result=decent", []int64{e.ID, b.ID}},
			{"result=bad", []int64{c.ID}},
			{"project=alpha.com&result=decent", []int64{b.ID}},
			{"search=alpha&result=good&sort_by=url", []int64{a.ID}},
			{"search=alpha&sort_by=result&sort=asc", []int64{c.ID, b.ID, a.ID}},
			{"page=2", []int64{}},
			{"page=2&per_page=10&result=good", []int64{}},
		}
		for _, tt := range tests {
			if got := ids(s.ListReports(t, ada, tt.query)); !slices.Equal(got, tt.want) {
				t.Errorf("?%s = %v, want %v", tt.query, got, tt.want)
			}
		}
		if m := s.ListReports(t, ada, "page=3&result=good").Meta; m.Total != 2 || m.CurrentPage != 3 || m.LastPage != 1 {
			t.Errorf("beyond the last page meta = %+v", m)
		}
		if m := s.ListReports(t, ada, "search=zzz").Meta; m.Total != 0 || m.LastPage != 1 {
			t.Errorf("empty list meta = %+v", m)
		}
		if m := s.ListReports(t, ada, "per_page=100").Meta; m.PerPage != 100 {
			t.Errorf("per_page=100 meta = %+v", m)
		}
		for _, bad := range []struct{ query, field string }{
			{"per_page=20", "per_page"}, {"per_page=0", "per_page"}, {"per_page=ten", "per_page"}, {"per_page=1000", "per_page"},
			{"sort_by=score", "sort_by"}, {"sort_by=created_at", "sort_by"}, {"sort=up", "sort"}, {"sort=DESC", "sort"},
			{"result=great", "result"}, {"search_by=project", "search_by"}, {"page=0", "page"}, {"page=-1", "page"},
		} {
			res := apitest.Do(t, s.H, http.MethodGet, "/api/v1/reports?"+bad.query, "", "", apitest.Bearer(ada)...)
			if res.Status != 422 || res.Code != "validation_failed" || len(res.Errors[bad.field]) == 0 {
				t.Errorf("?%s = %d %q %v, want 422 on %s", bad.query, res.Status, res.Code, res.Errors, bad.field)
			}
		}
	})

	t.Run("get", func(t *testing.T) {
		res := apitest.Do(t, s.H, http.MethodGet, apitest.IDPath(a.ID), "", "", apitest.Bearer(ada)...)
		var got httpapi.ReportData
		res.Decode(t, &got)
		if res.Status != 200 || got.ID != a.ID || got.Score != 90 || len(got.Results.SEO)+len(got.Results.Performance)+len(got.Results.Security)+len(got.Results.Miscellaneous) != 11 {
			t.Errorf("get = %d %+v", res.Status, got)
		}
		for _, key := range []string{`"seo":`, `"performance":`, `"security":`, `"miscellaneous":`, `"importance":"high"`, `"generated_at":`, `"created_at":`, `"updated_at":`} {
			if !strings.Contains(string(res.Data), key) {
				t.Errorf("report lacks %s: %s", key, res.Data)
			}
		}
		if res := apitest.Do(t, s.H, http.MethodGet, apitest.IDPath(e.ID+100), "", "", apitest.Bearer(ada)...); res.Status != 404 || res.Code != "not_found" {
			t.Errorf("missing report = %d %q", res.Status, res.Code)
		}
		// A failed check carries its advice and what it blames; a passed
		// one neither.
		for _, cs := range [][]httpapi.CheckData{got.Results.SEO, got.Results.Performance, got.Results.Security, got.Results.Miscellaneous} {
			for _, c := range cs {
				failed := c.ID == "check_9" && !c.Passed && c.Advice == "advice 9" && c.OffendingOmitted == 1 &&
					slices.Equal(c.Offending, []string{`<a href="javascript:go(9)">more</a>`, "<applet>"})
				if c.ID == "check_9" && !failed || c.Passed && (c.Advice != "" || c.Offending != nil || c.OffendingOmitted != 0) {
					t.Errorf("%s = %+v", c.ID, c)
				}
			}
		}
		if !strings.Contains(string(res.Data), `"advice":"advice 9","offending":["<a href=\"javascript:go(9)\">more</a>","<applet>"],"offending_omitted":1`) ||
			strings.Contains(string(res.Data), `"advice":""`) || strings.Contains(string(res.Data), `"offending":null`) {
			t.Errorf("report JSON: %s", res.Data)
		}
	})

	t.Run("update", func(t *testing.T) {
		put := func(body string, status int, field string) httpapi.ReportData {
			t.Helper()
			res := apitest.Do(t, s.H, http.MethodPut, apitest.IDPath(a.ID), apitest.FormType, body, apitest.Bearer(ada)...)
			if res.Status != status || (field != "" && len(res.Errors[field]) == 0) {
				t.Fatalf("PUT %q = %d %v, want %d on %q", body, res.Status, res.Errors, status, field)
			}
			var r httpapi.ReportData
			if status == 200 {
				res.Decode(t, &r)
			}
			return r
		}
		put("privacy=2", 422, "password")
		put("password=x", 422, "password")
		put("privacy=4", 422, "privacy")
		put("results=2", 422, "results")
		if r := put("privacy=2&password=p%C3%A4ss+w%C3%B6rd", 200, ""); r.Privacy != 2 || !r.HasPassword || r.Score != 90 {
			t.Errorf("to 2 = %+v", r)
		}
		if r := put("privacy=0", 200, ""); r.Privacy != 0 || !r.HasPassword {
			t.Errorf("to 0 = %+v, want the hash kept", r)
		}
		put("privacy=0&password=other+one", 422, "password")
		if r := put("privacy=2", 200, ""); r.Privacy != 2 || !r.HasPassword {
			t.Errorf("back to 2 = %+v", r)
		}
		if r := put("", 200, ""); r.Privacy != 2 || r.Score != 90 {
			t.Errorf("empty PUT = %+v", r)
		}
		calls := s.Analyser.Calls()
		if r := put("privacy=1&results=0", 200, ""); r.Privacy != 1 || s.Analyser.Calls() != calls {
			t.Errorf("results=0 = %+v, %d analyses", r, s.Analyser.Calls()-calls)
		}
		s.Analyser.Set("https://www.alpha.com/a", 20)
		r := put("results=1", 200, "")
		if r.Score != 20 || r.Result != "bad" || r.URL != a.URL || r.Privacy != 1 || r.GeneratedAt.Before(a.GeneratedAt) || s.Analyser.Calls() != calls+1 {
			t.Errorf("results=1 = %+v", r)
		}
		res := apitest.Do(t, s.H, http.MethodPut, apitest.IDPath(a.ID), apitest.JSONType, `{"privacy":0,"results":1}`, apitest.Bearer(ada)...)
		if res.Status != 200 {
			t.Errorf("JSON PUT = %d %v", res.Status, res.Errors)
		}
		if res := apitest.Do(t, s.H, http.MethodPut, apitest.IDPath(e.ID+100), apitest.FormType, "privacy=0", apitest.Bearer(ada)...); res.Status != 404 {
			t.Errorf("PUT missing = %d", res.Status)
		}
	})

	t.Run("delete", func(t *testing.T) {
		res := apitest.Do(t, s.H, http.MethodDelete, apitest.IDPath(e.ID), "", "", apitest.Bearer(ada)...)
		if res.Status != 200 || string(res.Data) != `{"id":`+apitest.Itoa(e.ID)+`,"deleted":true}` {
			t.Errorf("delete = %d %s", res.Status, res.Data)
		}
		if res := apitest.Do(t, s.H, http.MethodDelete, apitest.IDPath(e.ID), "", "", apitest.Bearer(ada)...); res.Status != 404 {
			t.Errorf("second delete = %d", res.Status)
		}
		if res := apitest.Do(t, s.H, http.MethodGet, apitest.IDPath(e.ID), "", "", apitest.Bearer(ada)...); res.Status != 404 {
			t.Errorf("get deleted = %d", res.Status)
		}
	})
}

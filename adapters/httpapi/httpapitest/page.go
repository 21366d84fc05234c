package httpapitest

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// pathParam matches a {name} path parameter.
var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// HostilePage sends every hostile value, Big included, to an HTML page
// outside the API: as each path parameter of pattern (GET, and POST with
// each form field set to the value too), and as each form field of a POST
// to valid, the path of a page that exists. Pages answer HTML, not the
// envelope, so only the status (below 500) and the headers (HeaderProblem)
// are checked.
func HostilePage(t *testing.T, h http.Handler, pattern, valid string, fields ...string) {
	t.Helper()
	form := func(v string) string {
		f := url.Values{}
		for _, name := range fields {
			f.Set(name, v)
		}
		return f.Encode()
	}
	for _, v := range append([]string{Big}, Values...) {
		path := pathParam.ReplaceAllLiteralString(pattern, v)
		checkPage(t, h, http.MethodGet, path, "")
		checkPage(t, h, http.MethodPost, path, form(v))
		checkPage(t, h, http.MethodPost, valid, form(v))
	}
}

// checkPage serves one request with the raw path (not cleaned or escaped)
// and requires a status below 500.
func checkPage(t *testing.T, h http.Handler, method, path, form string) {
	t.Helper()
	req := httptest.NewRequest(method, "/", strings.NewReader(form))
	req.URL.Path = path
	if method == http.MethodPost {
		req.Header.Set("Content-Type", formType)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code >= 500 {
		t.Errorf("%s %.60q (form %.60q) = %d %.200s", method, path, form, rec.Code, rec.Body.String())
	}
	if problem := HeaderProblem(rec.Code, rec.Header()); problem != "" {
		t.Errorf("%s %.60q (form %.60q) = %d: %s", method, path, form, rec.Code, problem)
	}
}

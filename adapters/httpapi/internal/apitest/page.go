package apitest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Page is a raw (HTML) response.
type Page struct {
	Status int
	Header http.Header
	Body   string
}

// Send serves req and returns the raw answer.
func Send(h http.Handler, req *http.Request) Page {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	b, _ := io.ReadAll(rec.Body)
	return Page{Status: rec.Code, Header: rec.Header(), Body: string(b)}
}

// GetPage sends a GET with optional header pairs.
func GetPage(t *testing.T, h http.Handler, target string, headers ...string) Page {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return Send(h, req)
}

// PostPassword sends the report page's password form from remote.
func PostPassword(h http.Handler, target, password, remote string) Page {
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader("password="+password))
	req.Header.Set("Content-Type", FormType)
	req.RemoteAddr = remote
	return Send(h, req)
}

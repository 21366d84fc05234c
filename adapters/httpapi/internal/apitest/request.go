package apitest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/app/health"
)

// Content types of request bodies.
const (
	JSONType = "application/json"
	FormType = "application/x-www-form-urlencoded"
)

// NewHandler builds the production handler with the given routes.
func NewHandler(t *testing.T, r httpapi.Routes) http.Handler {
	t.Helper()
	if r.Health == nil {
		r.Health = health.New(nil)
	}
	mux := http.NewServeMux()
	if err := httpapi.Register(httpapi.NewAPI(mux), r); err != nil {
		t.Fatal(err)
	}
	return middleware.NewHandler(mux, middleware.Options{})
}

// Response is a decoded envelope.
type Response struct {
	Status  int
	Header  http.Header
	Success bool                `json:"success"`
	Code    string              `json:"code"`
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors"`
	Data    json.RawMessage     `json:"data"`
	Body    []byte              `json:"-"` // the whole body as sent
}

// Do sends a request (header pairs after the body) and decodes its
// envelope, failing the test unless the body is JSON whose success agrees
// with the status.
func Do(t *testing.T, h http.Handler, method, target, contentType, body string, headers ...string) Response {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	raw, _ := io.ReadAll(rec.Body)
	res := Response{Status: rec.Code, Header: rec.Header(), Body: raw}
	if method == http.MethodHead {
		return res
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("%s %s: body is not JSON: %v: %s", method, target, err, raw)
	}
	if res.Success != (res.Status < 400) {
		t.Fatalf("%s %s: status %d with success=%v", method, target, res.Status, res.Success)
	}
	return res
}

// Decode decodes the envelope's data into v.
func (r Response) Decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("data: %v: %s", err, r.Data)
	}
}

// Bearer is the header pair sending token as a Bearer key.
func Bearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

// Login registers (when needed) and logs in, returning the token.
func Login(t *testing.T, h http.Handler, email string) string {
	t.Helper()
	Do(t, h, http.MethodPost, "/api/v1/register", FormType, "email="+email+"&password=correct+horse")
	var d wire.TokenData
	res := Do(t, h, http.MethodPost, "/api/v1/login", JSONType, `{"email":"`+email+`","password":"correct horse"}`)
	res.Decode(t, &d)
	if res.Status != 200 || !strings.HasPrefix(d.Token, "psk_") || d.TokenType != "Bearer" {
		t.Fatalf("login %s = %d %+v", email, res.Status, d)
	}
	return d.Token
}

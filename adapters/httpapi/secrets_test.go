package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/app/accounts"
)

// TestWeakSecretsRefused: passwords of spaces or NULs, common ones and
// 1-character share passwords are 422 on password, saying what is wrong.
func TestWeakSecretsRefused(t *testing.T) {
	s := apitest.NewSiteServer(t)
	ada := apitest.Login(t, s.H, "ada@example.com")
	for _, tt := range []struct{ name, path, ctype, body, want string }{
		{"spaces", "/api/v1/register", apitest.JSONType, `{"email":"b@example.com","password":"            "}`, "at least 8 characters"},
		{"NULs", "/api/v1/register", apitest.JSONType, `{"email":"b@example.com","password":"\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000"}`, "control characters"},
		{"NULs in a form", "/api/v1/register", apitest.FormType, "email=b@example.com&password=%00%00%00%00%00%00%00%00%00", "control characters"},
		{"common", "/api/v1/register", apitest.FormType, "email=b@example.com&password=Password1", "most common"},
		{"the e-mail address", "/api/v1/register", apitest.FormType, "email=b.smith@example.com&password=B.Smith@example.com", "e-mail address"},
		{"1-character share password", "/api/v1/reports", apitest.FormType, "url=https://alpha.com/&privacy=2&password=x", "at least 8 characters"},
		{"spaces as a share password", "/api/v1/reports", apitest.JSONType, `{"url":"https://alpha.com/","privacy":2,"password":"          "}`, "at least 8 characters"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := apitest.Do(t, s.H, http.MethodPost, tt.path, tt.ctype, tt.body, apitest.Bearer(ada)...)
			if res.Status != 422 || len(res.Errors["password"]) != 1 || !strings.Contains(res.Errors["password"][0], tt.want) {
				t.Fatalf("= %d %v, want 422 on password saying %q", res.Status, res.Errors, tt.want)
			}
		})
	}
}

// TestLooseAccountInput: e-mail addresses that are not valid UTF-8 or hold
// control or invisible characters are 422 on email; bidirectional
// overrides and other invisible characters are stripped from key names.
func TestLooseAccountInput(t *testing.T) {
	h := newAccountsHandler(t)
	for _, tt := range []struct{ name, ctype, body string }{
		{"invalid UTF-8 in a form", apitest.FormType, "email=ada%FF@example.com&password=correct+horse"},
		{"invalid UTF-8 in JSON", apitest.JSONType, "{\"email\":\"ada\xff@example.com\",\"password\":\"correct horse\"}"},
		{"NUL", apitest.JSONType, `{"email":"ada\u0000@example.com","password":"correct horse"}`},
		{"C1 control", apitest.JSONType, `{"email":"ada\u0085@example.com","password":"correct horse"}`},
		{"right-to-left override", apitest.JSONType, `{"email":"moc.elpmaxe\u202e@ada.com","password":"correct horse"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if res := apitest.Do(t, h, http.MethodPost, "/api/v1/register", tt.ctype, tt.body); res.Status != 422 || res.Errors["email"] == nil {
				t.Fatalf("register = %d %v, want 422 on email", res.Status, res.Errors)
			}
		})
	}
	apitest.Login(t, h, "ada@example.com")
	var tok httpapi.TokenData
	res := apitest.Do(t, h, http.MethodPost, "/api/v1/login", apitest.JSONType,
		`{"email":"ada@example.com","password":"correct horse","name":"\u202etoptal\u202c \u2066ci\u2069\u200b\u200e\u061c"}`)
	res.Decode(t, &tok)
	if tok.Key.Name != "toptal ci" {
		t.Errorf("key name = %q, want the invisible characters dropped", tok.Key.Name)
	}
}

// switchablePasswords answers ErrPasswordsBusy while busy is set, as
// *accounts.Passwords does when every slot stays taken.
type switchablePasswords struct {
	accounts.PasswordHasher
	busy atomic.Bool
}

func (p *switchablePasswords) Hash(ctx context.Context, password string) (string, error) {
	if p.busy.Load() {
		return "", accounts.ErrPasswordsBusy
	}
	return p.PasswordHasher.Hash(ctx, password)
}

func (p *switchablePasswords) Verify(ctx context.Context, phc, password string) (bool, error) {
	if p.busy.Load() {
		return false, accounts.ErrPasswordsBusy
	}
	return p.PasswordHasher.Verify(ctx, phc, password)
}

// TestPasswordsBusy: when every password slot is busy, each route that
// hashes or verifies a password answers 503 with Retry-After.
func TestPasswordsBusy(t *testing.T) {
	pw := &switchablePasswords{PasswordHasher: apitest.Passwords}
	s := apitest.NewSiteServerWith(t, pw)
	ada := apitest.Login(t, s.H, "ada@example.com")
	prot := s.CreateReport(t, ada, "url=https://alpha.com/&privacy=2&password=open+sesame")
	pw.busy.Store(true)
	for _, tt := range []struct{ name, method, path, body string }{
		{"login", http.MethodPost, "/api/v1/login", "email=ada@example.com&password=correct+horse"},
		{"login of an unknown address", http.MethodPost, "/api/v1/login", "email=eve@example.com&password=correct+horse"},
		{"register", http.MethodPost, "/api/v1/register", "email=bob@example.com&password=correct+horse"},
		{"report with a password", http.MethodPost, "/api/v1/reports", "url=https://alpha.com/&privacy=2&password=open+sesame"},
		{"new share password", http.MethodPut, apitest.IDPath(prot.ID), "password=new+sesame"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := apitest.Do(t, s.H, tt.method, tt.path, apitest.FormType, tt.body, apitest.Bearer(ada)...)
			if res.Status != 503 || res.Code != "unavailable" || res.Header.Get("Retry-After") != "1" {
				t.Fatalf("= %d %q, Retry-After %q; want 503 unavailable with Retry-After 1", res.Status, res.Code, res.Header.Get("Retry-After"))
			}
		})
	}
	if p := apitest.PostPassword(s.H, prot.ShareURL, "open+sesame", "192.0.2.1:1"); p.Status != 503 || p.Header.Get("Retry-After") != "1" || !strings.Contains(p.Body, "try again") {
		t.Errorf("share page password = %d, Retry-After %q", p.Status, p.Header.Get("Retry-After"))
	}
	pw.busy.Store(false)
	if p := apitest.PostPassword(s.H, prot.ShareURL, "open+sesame", "192.0.2.1:1"); p.Status != 303 {
		t.Errorf("share page password once free = %d, want 303", p.Status)
	}
}

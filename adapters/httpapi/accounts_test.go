package httpapi_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
)

func newAccountsHandler(t *testing.T) http.Handler {
	return apitest.NewHandler(t, httpapi.Routes{Accounts: accounts.New(memory.NewAccountStore(), apitest.Passwords)})
}

func TestRegister(t *testing.T) {
	h := newAccountsHandler(t)
	tests := []struct {
		name, ctype, body string
		wantStatus        int
		wantField         string
	}{
		{"form", apitest.FormType, "email=Ada@Example.com&password=correct+horse", 201, ""},
		{"duplicate, other case", apitest.JSONType, `{"email":"ada@example.COM","password":"another one"}`, 422, "email"},
		{"bad email", apitest.JSONType, `{"email":"not-an-address","password":"correct horse"}`, 422, "email"},
		{"display name", apitest.JSONType, `{"email":"Ada <a@example.com>","password":"correct horse"}`, 422, "email"},
		{"short password", apitest.JSONType, `{"email":"b@example.com","password":"short"}`, 422, "password"},
		{"long password", apitest.JSONType, `{"email":"b@example.com","password":"` + strings.Repeat("xy", 129) + `"}`, 422, "password"},
		{"missing password", apitest.JSONType, `{"email":"b@example.com"}`, 400, "password"},
		{"malformed", apitest.JSONType, `{"email":`, 400, "body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := apitest.Do(t, h, http.MethodPost, "/api/v1/register", tt.ctype, tt.body)
			if res.Status != tt.wantStatus || (tt.wantField != "" && res.Errors[tt.wantField] == nil) {
				t.Fatalf("register = %d %v, want %d on %q", res.Status, res.Errors, tt.wantStatus, tt.wantField)
			}
			if tt.wantStatus == 201 {
				var u httpapi.UserData
				res.Decode(t, &u)
				if u.Email != "ada@example.com" || u.ID == 0 || strings.Contains(string(res.Data), "password") {
					t.Errorf("registered user = %s", res.Data)
				}
			}
		})
	}
}

func TestLoginAndKeys(t *testing.T) {
	h := newAccountsHandler(t)
	first := apitest.Login(t, h, "ada@example.com")
	if res := apitest.Do(t, h, http.MethodPost, "/api/v1/login", apitest.JSONType, `{"email":"ada@example.com","password":"wrong password"}`); res.Status != 401 || res.Code != "unauthorized" {
		t.Errorf("wrong password = %d %q, want 401", res.Status, res.Code)
	}
	if res := apitest.Do(t, h, http.MethodPost, "/api/v1/login", apitest.JSONType, `{"email":"nobody@example.com","password":"correct horse"}`); res.Status != 401 {
		t.Errorf("unknown user = %d, want 401", res.Status)
	}
	second := apitest.Login(t, h, "ada@example.com")
	if first == second {
		t.Fatal("two logins gave the same key")
	}
	var acct httpapi.AccountData
	apitest.Do(t, h, http.MethodGet, "/api/v1/account", "", "", apitest.Bearer(first)...).Decode(t, &acct)
	if acct.Email != "ada@example.com" || acct.CurrentKey.LastUsedAt == nil {
		t.Errorf("account = %+v", acct)
	}
	var keys httpapi.KeysData
	apitest.Do(t, h, http.MethodGet, "/api/v1/account/keys", "", "", apitest.Bearer(second)...).Decode(t, &keys)
	if len(keys.Keys) != 2 || strings.Contains(first, keys.Keys[0].Prefix) == false {
		t.Fatalf("keys = %+v", keys)
	}
	// Revoking the first key leaves the second working.
	if res := apitest.Do(t, h, http.MethodDelete, "/api/v1/account/keys/"+strconv.FormatInt(keys.Keys[0].ID, 10), "", "", apitest.Bearer(second)...); res.Status != 200 {
		t.Fatalf("revoke = %d %s %v", res.Status, res.Message, res.Errors)
	}
	if res := apitest.Do(t, h, http.MethodGet, "/api/v1/account", "", "", apitest.Bearer(first)...); res.Status != 401 {
		t.Errorf("revoked key = %d, want 401", res.Status)
	}
	if res := apitest.Do(t, h, http.MethodGet, "/api/v1/account", "", "", apitest.Bearer(second)...); res.Status != 200 {
		t.Errorf("other key after revoke = %d, want 200", res.Status)
	}
	// Rotation replaces the key in use.
	var rotated httpapi.TokenData
	apitest.Do(t, h, http.MethodPost, "/api/v1/account/api-key", apitest.JSONType, `{"name":"ci"}`, apitest.Bearer(second)...).Decode(t, &rotated)
	if rotated.Key.Name != "ci" || rotated.Token == second {
		t.Fatalf("rotate = %+v", rotated)
	}
	if res := apitest.Do(t, h, http.MethodGet, "/api/v1/account", "", "", apitest.Bearer(second)...); res.Status != 401 {
		t.Errorf("rotated-out key = %d, want 401", res.Status)
	}
	if res := apitest.Do(t, h, http.MethodGet, "/api/v1/account", "", "", apitest.Bearer(rotated.Token)...); res.Status != 200 {
		t.Errorf("new key = %d, want 200", res.Status)
	}
}

func TestAuthRequired(t *testing.T) {
	h := newAccountsHandler(t)
	ada := apitest.Login(t, h, "ada@example.com")
	bob := apitest.Login(t, h, "bob@example.com")
	for _, hdr := range [][]string{nil, {"Authorization", "Bearer"}, {"Authorization", "Basic abc"}, apitest.Bearer("psk_wrong")} {
		res := apitest.Do(t, h, http.MethodGet, "/api/v1/account", "", "", hdr...)
		if res.Status != 401 || !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("GET /account with %v = %d, WWW-Authenticate %q; want 401 with a Bearer challenge", hdr, res.Status, res.Header.Get("WWW-Authenticate"))
		}
	}
	// Bob cannot revoke Ada's keys.
	var keys httpapi.KeysData
	apitest.Do(t, h, http.MethodGet, "/api/v1/account/keys", "", "", apitest.Bearer(ada)...).Decode(t, &keys)
	if res := apitest.Do(t, h, http.MethodDelete, "/api/v1/account/keys/"+strconv.FormatInt(keys.Keys[0].ID, 10), "", "", apitest.Bearer(bob)...); res.Status != 404 {
		t.Errorf("revoke another user's key = %d, want 404", res.Status)
	}
}

// TestAuthChallenges pins the WWW-Authenticate challenges (RFC 6750): a
// missing key and wrong login credentials get the bare challenge, an
// unknown key error="invalid_token" too, each with its message.
func TestAuthChallenges(t *testing.T) {
	h := newAccountsHandler(t)
	apitest.Login(t, h, "ada@example.com")
	tests := []struct {
		name, method, path, contentType, body string
		headers                               []string
		message, challenge                    string
	}{
		{"no key", http.MethodGet, "/api/v1/account", "", "", nil,
			"missing API key: send Authorization: Bearer <key>", `Bearer realm="pinsight"`},
		{"basic credentials", http.MethodGet, "/api/v1/account", "", "", []string{"Authorization", "Basic YWRhOnNlY3JldA=="},
			`missing API key: the "Basic" scheme is not accepted; send Authorization: Bearer <key>`, `Bearer realm="pinsight"`},
		{"unknown key", http.MethodGet, "/api/v1/account", "", "", apitest.Bearer("psk_wrong"),
			"missing or invalid API key", `Bearer realm="pinsight", error="invalid_token"`},
		{"wrong password", http.MethodPost, "/api/v1/login", apitest.JSONType, `{"email":"ada@example.com","password":"not the password"}`, nil,
			"invalid email or password", `Bearer realm="pinsight"`},
	}
	for _, tt := range tests {
		res := apitest.Do(t, h, tt.method, tt.path, tt.contentType, tt.body, tt.headers...)
		if res.Status != 401 || res.Message != tt.message || res.Header.Get("WWW-Authenticate") != tt.challenge {
			t.Errorf("%s: %d %q, WWW-Authenticate %q; want 401 %q, %q", tt.name, res.Status, res.Message, res.Header.Get("WWW-Authenticate"), tt.message, tt.challenge)
		}
	}
}

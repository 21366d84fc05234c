package main

import (
	"bytes"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
)

// runWithInput is run with stdin reading input.
func runWithInput(t *testing.T, input string, args ...string) (string, error) {
	t.Helper()
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(io.Discard)
	root.SetIn(strings.NewReader(input))
	root.SetArgs(args)
	err := root.Execute()
	return strings.TrimSpace(out.String()), err
}

// TestUserCreatePassword: user create --password reads the password from
// standard input when it is not a terminal, and the account then logs in
// with it through the API; without --password the account is key-only
// (its key works, login refuses it), as the help says.
func TestUserCreatePassword(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
	key, err := runWithInput(t, "a long pass phrase\n", "user", "create", "--email", "ops@example.com", "--password", "--database-url", url)
	if err != nil || !strings.HasPrefix(key, "psk_") {
		t.Fatalf("user create --password = %q, %v", key, err)
	}
	keyOnly, err := run(t, "user", "create", "--email", "robot@example.com", "--database-url", url)
	if err != nil || !strings.HasPrefix(keyOnly, "psk_") {
		t.Fatalf("user create = %q, %v", keyOnly, err)
	}
	for _, c := range []struct{ input, want string }{
		{"", "no password given"},
		{"\n", "no password given"},
		{"password\n", "password"}, // a common one, refused as registration refuses it
		{"weak@example.com\n", "must not be the e-mail address"},
	} {
		if _, err := runWithInput(t, c.input, "user", "create", "--email", "weak@example.com", "--password", "--database-url", url); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("user create --password with input %q: err = %v, want it to say %q", c.input, err, c.want)
		}
	}
	help, err := run(t, "user", "create", "--help")
	if err != nil || !strings.Contains(help, "key-only") || !strings.Contains(help, "--password") {
		t.Errorf("user create --help = %q, %v; want it to name key-only accounts and --password", help, err)
	}

	var srv *httpapi.Server
	a := fxtest.New(t, mustOptions(t, serveConfig{HTTP: httpapi.Config{Addr: "127.0.0.1:0"}, Database: databaseConfig{URL: url}}), fx.Populate(&srv))
	a.RequireStart()
	defer a.RequireStop()
	base := "http://" + srv.Addr()
	login := call(t, base, http.MethodPost, "/api/v1/login", "", `{"email":"ops@example.com","password":"a long pass phrase"}`, http.StatusOK)
	if got := call(t, base, http.MethodGet, "/api/v1/account", login["token"].(string), "", http.StatusOK)["email"]; got != "ops@example.com" {
		t.Errorf("the login's key opens %v", got)
	}
	call(t, base, http.MethodPost, "/api/v1/login", "", `{"email":"ops@example.com","password":"another pass phrase"}`, http.StatusUnauthorized)
	call(t, base, http.MethodPost, "/api/v1/login", "", `{"email":"robot@example.com","password":"any pass phrase"}`, http.StatusUnauthorized)
	if got := call(t, base, http.MethodGet, "/api/v1/account", keyOnly, "", http.StatusOK)["email"]; got != "robot@example.com" {
		t.Errorf("the key-only account's key opens %v", got)
	}
}

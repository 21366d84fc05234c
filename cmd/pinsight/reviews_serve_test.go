package main

import (
	"net/http"
	"path/filepath"
	"strconv"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
)

// TestServeReviewsOnSQLite runs serve's real graph on a SQLite file: a
// review and a like written through the API show in the office records,
// and are still counted by a server started again on the same file.
func TestServeReviewsOnSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers on the embedded snapshot")
	}
	cfg := serveConfig{HTTP: httpapi.Config{Addr: "127.0.0.1:0"}, Database: databaseConfig{URL: "sqlite:" + filepath.Join(t.TempDir(), "p.db")}}
	start := func() (string, *fxtest.App) {
		var srv *httpapi.Server
		a := fxtest.New(t, mustOptions(t, cfg), fx.Populate(&srv))
		a.RequireStart()
		return "http://" + srv.Addr(), a
	}
	base, a := start()
	creds := `{"email":"ada@example.com","password":"correct horse"}`
	call(t, base, http.MethodPost, "/api/v1/register", "", creds, http.StatusCreated)
	key, _ := call(t, base, http.MethodPost, "/api/v1/login", "", creds, http.StatusOK)["token"].(string)
	first := call(t, base, http.MethodGet, "/api/v1/pincodes/110001", "", "", http.StatusOK)["post_offices"].([]any)[0].(map[string]any)
	id := strconv.FormatFloat(first["id"].(float64), 'f', 0, 64)
	call(t, base, http.MethodPut, "/api/v1/post-offices/"+id+"/review", key, `{"rating":3}`, http.StatusCreated)
	call(t, base, http.MethodPut, "/api/v1/post-offices/"+id+"/like", key, "", http.StatusOK)
	a.RequireStop()

	base, a = start()
	defer a.RequireStop()
	o := call(t, base, http.MethodGet, "/api/v1/post-offices/"+id, "", "", http.StatusOK)
	if o["reviews_count"] != 1.0 || o["likes_count"] != 1.0 || o["rating"] != 3.0 {
		t.Errorf("office %s after a restart: %v reviews, %v likes, rating %v; want 1, 1, 3", id, o["reviews_count"], o["likes_count"], o["rating"])
	}
	again := call(t, base, http.MethodGet, "/api/v1/pincodes/110001", "", "", http.StatusOK)["post_offices"].([]any)[0].(map[string]any)
	if again["id"] != first["id"] || again["reviews_count"] != 1.0 || again["likes_count"] != 1.0 {
		t.Errorf("110001's first office after a restart: %v", again)
	}
}

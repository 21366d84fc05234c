package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
)

// send makes a JSON request with an optional Bearer key and decodes the
// envelope's data into v (nil: not decoded), returning the status.
func send(t *testing.T, method, url, key string, body, v any) int {
	t.Helper()
	var raw []byte
	if body != nil {
		raw, _ = json.Marshal(body)
	}
	req, _ := http.NewRequest(method, url, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if v != nil {
		env := struct{ Data any }{Data: v}
		if err := json.NewDecoder(res.Body).Decode(&env); err != nil {
			t.Fatalf("%s %s: %v", method, url, err)
		}
	}
	return res.StatusCode
}

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
		return "http://" + srv.Addr() + "/api/v1", a
	}
	base, a := start()
	creds := map[string]any{"email": "ada@example.com", "password": "correct horse"}
	if status := send(t, http.MethodPost, base+"/register", "", creds, nil); status != http.StatusCreated {
		t.Fatalf("register = %d", status)
	}
	var tok httpapi.TokenData
	send(t, http.MethodPost, base+"/login", "", creds, &tok)
	var pin httpapi.PincodeData
	send(t, http.MethodGet, base+"/pincodes/110001", "", nil, &pin)
	if len(pin.PostOffices) == 0 {
		t.Fatal("110001 has no office")
	}
	id := strconv.FormatInt(pin.PostOffices[0].ID, 10)
	if status := send(t, http.MethodPut, base+"/post-offices/"+id+"/review", tok.Token, map[string]any{"rating": 3}, nil); status != http.StatusCreated {
		t.Fatalf("PUT review = %d", status)
	}
	if status := send(t, http.MethodPut, base+"/post-offices/"+id+"/like", tok.Token, nil, nil); status != http.StatusOK {
		t.Fatalf("PUT like = %d", status)
	}
	a.RequireStop()

	base, a = start()
	defer a.RequireStop()
	var o httpapi.OfficeData
	send(t, http.MethodGet, base+"/post-offices/"+id, "", nil, &o)
	if o.ReviewsCount != 1 || o.LikesCount != 1 || o.Rating == nil || *o.Rating != 3 {
		t.Errorf("office %s after a restart: %d reviews, %d likes, rating %v; want 1, 1, 3", id, o.ReviewsCount, o.LikesCount, o.Rating)
	}
	send(t, http.MethodGet, base+"/pincodes/110001", "", nil, &pin)
	if pin.PostOffices[0].ReviewsCount != 1 || pin.PostOffices[0].LikesCount != 1 {
		t.Errorf("110001's first office: %+v", pin.PostOffices[0].FeedbackData)
	}
}

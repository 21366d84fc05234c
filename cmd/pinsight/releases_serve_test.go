package main

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports/porttest"
)

// getJSON GETs url and returns its status and its whole body decoded.
func getJSON(t *testing.T, url string) (int, map[string]any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("GET %s: %d %s: %v", url, res.StatusCode, raw, err)
	}
	return res.StatusCode, body
}

// TestServeReleasesOnSQLite runs serve's real graph on a SQLite file: first
// on the embedded snapshot (the first release), then with --data-dir on a
// second release written from it (its changes listed, its removed PIN
// terminated), then again on the same folder (no new release, the history
// and the terminated PIN kept across the restart).
func TestServeReleasesOnSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three servers on the whole directory")
	}
	dir := t.TempDir()
	var edits porttest.ReleaseEdits
	err := indiapost.WriteRelease(dir, snapshot.Files(), func(rows []postal.RawOffice) []postal.RawOffice {
		out, e := porttest.SecondRelease(rows)
		edits = e
		return out
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg := serveConfig{HTTP: httpapi.Config{Addr: "127.0.0.1:0"}, Database: databaseConfig{URL: "sqlite:" + filepath.Join(t.TempDir(), "p.db")}}
	start := func(dataDir string) (string, *fxtest.App) {
		c := cfg
		c.Data.Dir = dataDir
		var srv *httpapi.Server
		a := fxtest.New(t, mustOptions(t, c), fx.Populate(&srv))
		a.RequireStart()
		return "http://" + srv.Addr() + "/api/v1", a
	}

	base, a := start("")
	changes := call(t, base, http.MethodGet, "/dataset/changes", "", "", http.StatusOK)
	if rs := changes["releases"].([]any); len(rs) != 1 || rs[0].(map[string]any)["release"] != snapshot.Release || len(changes["changes"].([]any)) != 0 {
		t.Errorf("changes on the snapshot: %v; want its release alone, no change", changes)
	}
	call(t, base, http.MethodGet, "/pincodes/"+string(edits.RemovedPin), "", "", http.StatusOK)
	a.RequireStop()

	for restart := range 2 {
		base, a = start(dir)
		changes = call(t, base, http.MethodGet, "/dataset/changes?since="+snapshot.Release+"&per_page=100", "", "", http.StatusOK)
		rs := changes["releases"].([]any)
		if len(rs) != 1 || changes["since"].(map[string]any)["release"] != snapshot.Release {
			t.Fatalf("start %d on the second release: releases after the snapshot %v, since %v; want one", restart+1, rs, changes["since"])
		}
		kinds := map[string]int{}
		var renamed, moved map[string]any
		for _, c := range changes["changes"].([]any) {
			c := c.(map[string]any)
			kinds[c["kind"].(string)]++
			switch c["kind"] {
			case "office_renamed":
				renamed = c
			case "office_moved":
				moved = c
			}
		}
		want := map[string]int{"pincode_removed": 1, "pincode_added": 1, "office_removed": edits.RemovedOffices + 1, "office_added": 1,
			"office_renamed": 1, "office_retyped": 1, "office_moved": 1}
		for k, n := range want {
			if kinds[k] != n {
				t.Errorf("start %d: %d %s, want %d (%v)", restart+1, kinds[k], k, n, kinds)
			}
		}
		if renamed["before"] != edits.RenamedFrom || renamed["after"] != edits.RenamedTo || renamed["pincode"] != string(edits.RenamedPin) {
			t.Errorf("renamed: %v, want %s: %q -> %q", renamed, edits.RenamedPin, edits.RenamedFrom, edits.RenamedTo)
		}
		if km, _ := moved["distance_km"].(float64); moved["office"] != edits.MovedOffice || km < 1 || km > 1.2 {
			t.Errorf("moved: %v, want %q about 1.1 km", moved, edits.MovedOffice)
		}

		status, body := getJSON(t, base+"/pincodes/"+string(edits.RemovedPin))
		if status != http.StatusNotFound || body["success"] != false || body["terminated"] != true || body["last_release"] != snapshot.Release {
			t.Errorf("start %d: the removed PIN %s = %d %v; want 404, terminated, last release %s", restart+1, edits.RemovedPin, status, body, snapshot.Release)
		}
		status, body = getJSON(t, base+"/pincodes/999998")
		if _, has := body["terminated"]; status != http.StatusNotFound || has {
			t.Errorf("a PIN no release had = %d %v; want a plain 404", status, body)
		}
		call(t, base, http.MethodGet, "/pincodes/"+string(edits.AddedPin), "", "", http.StatusOK)
		status, body = getJSON(t, base+"/dataset/changes?since=2001-01-01")
		if status != http.StatusUnprocessableEntity || body["errors"].(map[string]any)["since"] == nil {
			t.Errorf("an unknown release = %d %v; want 422 naming since", status, body)
		}
		a.RequireStop()
	}
}

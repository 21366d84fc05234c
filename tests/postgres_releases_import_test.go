package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/app/releases"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports/porttest"
)

// importRelease runs `pinsight import` on url (with --data-dir dir unless
// "") and returns the release part of its report.
func importRelease(t *testing.T, bin, url, dir string) map[string]any {
	t.Helper()
	args := []string{"import", "--database-url", url}
	if dir != "" {
		args = append(args, "--data-dir", dir)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pinsight %v: %v\n%s", args, err, stderr.String())
	}
	dec := json.NewDecoder(&stdout)
	var load, imported map[string]any
	if err := dec.Decode(&load); err != nil {
		t.Fatal(err)
	}
	if err := dec.Decode(&imported); err != nil {
		t.Fatalf("import report: %v (%s)", err, stdout.String())
	}
	rel, _ := imported["release"].(map[string]any)
	return rel
}

// TestPostgresReleasesThroughImport imports the embedded snapshot, then a
// second release written from it by the test: import records each release
// with its changes, a server on the database lists them and answers the
// removed PIN as terminated, and importing the same release again records
// nothing.
func TestPostgresReleasesThroughImport(t *testing.T) {
	if testing.Short() {
		t.Skip("imports the full directory twice (-short)")
	}
	skipWithoutDocker(t)
	db, url := newDatabase(t)
	bin := buildPinsight(t)
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

	if rel := importRelease(t, bin, url, ""); rel["name"] != snapshot.Release || rel["seq"] != 1.0 || rel["new"] != true || rel["changes"] != 0.0 {
		t.Fatalf("first import: release %v; want the snapshot as release 1, no change", rel)
	}
	second := importRelease(t, bin, url, dir)
	wantChanges := 1 + 1 + edits.RemovedOffices + 1 + 1 + 1 + 1 + 1 // PINs removed and added, offices removed, added, renamed, retyped, moved
	if second["seq"] != 2.0 || second["new"] != true || second["changes"] != float64(wantChanges) || second["terminated"] != 1.0 {
		t.Fatalf("second import: release %v; want release 2 with %d changes and 1 terminated PIN", second, wantChanges)
	}

	// The memory store (a replica's) and the Postgres store answer the
	// same for a terminated PIN, a PIN still there and one never seen.
	ds, _, err := postgres.LoadDataset(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := releases.New(postgres.NewReleaseStore(db)).Load(context.Background(), ds, nil); err != nil {
		t.Fatal(err)
	}
	eq := &equivalence{t: t, mem: memory.NewPostalStore(ds), pg: postgres.NewPostalStore(db)}
	for _, pin := range []postal.Pincode{edits.RemovedPin, edits.RenamedPin, "999998"} {
		mr, mf, err1 := eq.mem.TerminatedPincode(ctx, pin)
		pr, pf, err2 := eq.pg.TerminatedPincode(ctx, pin)
		eq.same("TerminatedPincode("+string(pin)+")", ans([]any{mr, mf}, 0, err1), ans([]any{pr, pf}, 0, err2))
	}
	if r, found, _ := eq.mem.TerminatedPincode(ctx, edits.RemovedPin); !found || r.Name() != snapshot.Release {
		t.Errorf("terminated %s: %v, %+v; want last in %s", edits.RemovedPin, found, r, snapshot.Release)
	}

	in := startInstance(t, bin, "server", "--database-url", url, "--rate-limit", "off")
	waitFor(t, "the server ready", 3*time.Minute, func() bool { return status(in.base+"/readyz") == 200 })
	r := in.do(t, http.MethodGet, "/api/v1/dataset/changes?since="+snapshot.Release+"&per_page=100", "", "", "")
	if r.status != http.StatusOK {
		t.Fatalf("changes = %d %s", r.status, r.body)
	}
	data := r.data(t)
	if rs, _ := data["releases"].([]any); len(rs) != 1 || len(data["changes"].([]any)) != wantChanges {
		t.Errorf("changes since the snapshot: %d releases, %d changes; want 1 release (the server recorded none of its own), %d changes",
			len(rs), len(data["changes"].([]any)), wantChanges)
	}
	r = in.do(t, http.MethodGet, "/api/v1/pincodes/"+string(edits.RemovedPin), "", "", "")
	var body map[string]any
	_ = json.Unmarshal(r.body, &body)
	if r.status != http.StatusNotFound || body["terminated"] != true || body["last_release"] != snapshot.Release || body["success"] != false {
		t.Errorf("the removed PIN = %d %s; want 404, terminated, last release %s", r.status, r.body, snapshot.Release)
	}
	if r = in.do(t, http.MethodGet, "/api/v1/pincodes/"+string(edits.AddedPin), "", "", ""); r.status != http.StatusOK {
		t.Errorf("the added PIN = %d %s; want 200", r.status, r.body)
	}

	if again := importRelease(t, bin, url, dir); again["seq"] != 2.0 || again["new"] != false {
		t.Errorf("the same release imported again: %v; want release 2, not new", again)
	}
}

package main

import (
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/app/health"
)

// getData GETs url, requires 200 and decodes the envelope's data into v.
func getData(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body := struct {
		Success bool
		Data    any
	}{Data: v}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || res.StatusCode != http.StatusOK || !body.Success {
		t.Fatalf("GET %s = %d, success %v, %v; want 200", url, res.StatusCode, body.Success, err)
	}
}

// TestServeServesTheSnapshot starts serve's real graph with no data flag:
// the postal endpoints answer from the embedded snapshot, /dataset and
// /readyz name it, and SIGHUP leaves it served.
func TestServeServesTheSnapshot(t *testing.T) {
	var srv *httpapi.Server
	a := fxtest.New(t, mustOptions(t, serveConfig{HTTP: httpapi.Config{Addr: "127.0.0.1:0"}, Database: databaseConfig{URL: "memory:"}}), fx.Populate(&srv))
	a.RequireStart()
	defer a.RequireStop()
	base := "http://" + srv.Addr()

	var pin struct {
		Total       int `json:"total"`
		PostOffices []struct {
			PostOffice string `json:"post_office"`
		} `json:"post_offices"`
	}
	getData(t, base+"/api/v1/pincodes/110001", &pin)
	names := make([]string, len(pin.PostOffices))
	for i, o := range pin.PostOffices {
		names[i] = o.PostOffice
	}
	if pin.Total != 23 || !slices.Contains(names, "New Delhi GPO") || !slices.Contains(names, "Sansad Marg HO") {
		t.Errorf("110001: %d offices %q; want the 23 of the directory, New Delhi GPO and Sansad Marg HO among them", pin.Total, names)
	}

	var states struct {
		Total  int `json:"total"`
		States []struct {
			ID   int    `json:"id"`
			Name string `json:"name"`
		} `json:"states"`
	}
	getData(t, base+"/api/v1/states", &states)
	byID := map[int]string{}
	for _, s := range states.States {
		byID[s.ID] = s.Name
	}
	if states.Total != 36 || len(states.States) != 36 || !strings.EqualFold(byID[19], "West Bengal") || !strings.EqualFold(byID[7], "Delhi") {
		t.Errorf("states: %d listed (West Bengal %q, Delhi %q); want the 36 LGD states by LGD code", states.Total, byID[19], byID[7])
	}

	var villages struct {
		Villages []struct {
			VillageName string `json:"village_name"`
			District    string `json:"district"`
			StateID     int    `json:"state_id"`
		} `json:"villages"`
		Meta struct {
			Total int `json:"total"`
		} `json:"meta"`
	}
	getData(t, base+"/api/v1/pincodes/734014/villages?per_page=100", &villages)
	var found bool
	for _, v := range villages.Villages {
		found = found || (v.VillageName == "Helakadam Chhat" && v.District == "Darjeeling" && v.StateID == 19)
	}
	if villages.Meta.Total != 41 || !found {
		t.Errorf("734014 villages: %d, Helakadam Chhat (Darjeeling) listed %v; want 41 LGD villages", villages.Meta.Total, found)
	}

	var near struct {
		WithinRadius bool `json:"within_radius"`
		PostOffices  []struct {
			DistanceKm float64 `json:"distance_km"`
		} `json:"post_offices"`
	}
	getData(t, base+"/api/v1/pincodes/nearby?latitude=28.6315&longitude=77.2167&radius=2&limit=5", &near)
	if !near.WithinRadius || len(near.PostOffices) != 5 || near.PostOffices[0].DistanceKm > 2 {
		t.Errorf("nearby Connaught Place: within %v, %d offices %+v; want 5 within 2 km", near.WithinRadius, len(near.PostOffices), near.PostOffices)
	}

	var ds struct {
		Source  string  `json:"source"`
		Release *string `json:"release"`
		Files   []struct {
			Name   string  `json:"name"`
			Date   *string `json:"date"`
			Rows   int     `json:"rows"`
			SHA256 string  `json:"sha256"`
		} `json:"files"`
		Licence     string `json:"licence"`
		LGDCodes    bool   `json:"lgd_codes"`
		PostOffices int    `json:"post_offices"`
	}
	getData(t, base+"/api/v1/dataset", &ds)
	if ds.Source != "embedded" || ds.Release == nil || *ds.Release != snapshot.Release || len(ds.Files) != len(snapshot.Catalogue) ||
		ds.PostOffices != 165625 || !ds.LGDCodes || ds.Licence != "GODL-India" {
		t.Fatalf("dataset = %+v; want the embedded snapshot of %s", ds, snapshot.Release)
	}
	for i, c := range snapshot.Catalogue {
		f := ds.Files[i]
		if f.Name != c.Name || f.Rows != c.Rows || f.SHA256 != c.SHA256 || (c.Date == "") != (f.Date == nil) || (f.Date != nil && *f.Date != c.Date) {
			t.Errorf("dataset file %d = %+v, want %+v", i, f, c)
		}
	}

	ready := func() health.ComponentState {
		var r struct {
			Components []health.ComponentState `json:"components"`
		}
		getData(t, base+"/readyz", &r)
		for _, c := range r.Components {
			if c.Name == "postal_data" {
				return c
			}
		}
		t.Fatalf("/readyz lists no postal_data: %+v", r)
		return health.ComponentState{}
	}
	if c := ready(); c.State != "ready" || !strings.Contains(c.Detail, "embedded snapshot, release "+snapshot.Release) {
		t.Errorf("/readyz postal_data = %+v, want ready naming the embedded snapshot and its release", c)
	}

	// SIGHUP has nothing to re-read, and must neither end the process nor
	// stop the serving.
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	getData(t, base+"/api/v1/pincodes/110001", &pin)
	if c := ready(); c.State != "ready" || pin.Total != 23 {
		t.Errorf("after SIGHUP: postal_data %+v, 110001 has %d offices", c, pin.Total)
	}
}

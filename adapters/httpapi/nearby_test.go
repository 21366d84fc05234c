package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/pinsight/pinsight/adapters/boundary"
	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/postal"
)

// geoBoundaries is the geo package's hand-made boundary file: 110001 is the
// square 28-29 N, 77-78 E with a hole 28.4-28.6 N, 77.4-77.6 E; 110002
// shares its east edge (78 E); 110003 is an island inside the hole.
const geoBoundaries = "../../geo/testdata/pins.geojson"

// geoRows places offices around those boundaries: two in 110001, one in
// 110002 near the shared edge, one on the island, one without a location,
// and ten sharing one point (hence approximate) far away.
func geoRows() []postal.RawOffice {
	row := func(n int, name, pin, typ, lat, lon string) postal.RawOffice {
		return postal.RawOffice{Row: n, Circle: "Delhi", Region: "NA", Division: "Central", Name: name, Pincode: pin,
			OfficeType: typ, Delivery: "Delivery", District: "New Delhi", State: "Delhi", Latitude: lat, Longitude: lon}
	}
	rows := []postal.RawOffice{
		row(1, "Alpha H.O", "110001", "HO", "28.2", "77.2"),
		row(2, "Beta S.O", "110001", "PO", "28.9", "77.9"),
		row(3, "Gamma B.O", "110002", "BO", "28.5", "78.05"),
		row(4, "Delta S.O", "110003", "PO", "28.5", "77.5"),
		row(5, "Epsilon B.O", "110001", "BO", "NA", "NA"),
	}
	for i := range 10 {
		rows = append(rows, row(6+i, fmt.Sprintf("Shared %d B.O", i), "208001", "BO", "26.0", "80.0"))
	}
	return rows
}

// geoHandler serves geoRows, with the boundary file when withBoundaries.
func geoHandler(t *testing.T, withBoundaries bool) http.Handler {
	t.Helper()
	store := memory.NewPostalStore(postal.Build(geoRows(), nil, nil))
	r := apitest.PostalRoutes(store)
	if withBoundaries {
		b, err := boundary.Load(geoBoundaries, "pincode")
		if err != nil {
			t.Fatal(err)
		}
		r.Geocoder = geocode.New(store, b)
	}
	mux := http.NewServeMux()
	if err := httpapi.Register(httpapi.NewAPI(mux), r); err != nil {
		t.Fatal(err)
	}
	return middleware.NewHandler(mux, middleware.Options{})
}

func nearbyNames(offices []httpapi.NearbyOffice) []string {
	out := make([]string, len(offices))
	for i, o := range offices {
		out[i] = o.PostOffice
	}
	return out
}

func TestNearby(t *testing.T) {
	h := geoHandler(t, false)
	tests := []struct {
		name, query  string
		wantWithin   bool
		wantOffices  []string
		wantLatitude float64
	}{
		{"defaults: within 10 km", "latitude=28.2&longitude=77.2", true, []string{"Alpha H.O"}, 28.2},
		{"radius 100, nearest first", "latitude=28.5&longitude=77.5&radius=100", true, []string{"Delta S.O", "Alpha H.O", "Gamma B.O", "Beta S.O"}, 28.5},
		{"limit", "latitude=28.5&longitude=77.5&radius=100&limit=2", true, []string{"Delta S.O", "Alpha H.O"}, 28.5},
		{"fallback: closest at any distance", "latitude=28.5&longitude=75&limit=3", false, []string{"Alpha H.O", "Delta S.O", "Beta S.O"}, 28.5},
		{"point", "point=" + url.QueryEscape("28.2, 77.2"), true, []string{"Alpha H.O"}, 28.2},
		{"point in DMS", "point=" + url.QueryEscape(`28°12'N 77°12'0"E`), true, []string{"Alpha H.O"}, 28.2},
		{"point longitude first", "point=" + url.QueryEscape("77.2E 28.2N"), true, []string{"Alpha H.O"}, 28.2},
		{"outside India: still the closest", "latitude=-33.9&longitude=151.2&limit=1", false, []string{"Shared 0 B.O"}, -33.9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := apitest.Do(t, h, http.MethodGet, "/api/v1/pincodes/nearby?"+tt.query, "", "")
			if res.Status != http.StatusOK {
				t.Fatalf("status = %d %s %v", res.Status, res.Message, res.Errors)
			}
			var d httpapi.NearbyData
			res.Decode(t, &d)
			if got := nearbyNames(d.PostOffices); !slices.Equal(got, tt.wantOffices) || d.WithinRadius != tt.wantWithin {
				t.Fatalf("offices = %v within_radius=%v, want %v %v", got, d.WithinRadius, tt.wantOffices, tt.wantWithin)
			}
			if d.Latitude != tt.wantLatitude {
				t.Errorf("latitude = %v, want %v", d.Latitude, tt.wantLatitude)
			}
			for i, o := range d.PostOffices {
				if i > 0 && o.DistanceKm < d.PostOffices[i-1].DistanceKm {
					t.Errorf("not nearest first: %v", d.PostOffices)
				}
				if o.LocationQuality == "" || o.LocationQuality == "missing" {
					t.Errorf("%s: location_quality %q", o.PostOffice, o.LocationQuality)
				}
			}
		})
	}
}

func TestNearbyDetails(t *testing.T) {
	h := geoHandler(t, false)
	res := apitest.Do(t, h, http.MethodGet, "/api/v1/pincodes/nearby?latitude=28.3&longitude=77.2&limit=1", "", "")
	var d httpapi.NearbyData
	res.Decode(t, &d)
	if d.RadiusKm != 10 || len(d.PostOffices) != 1 {
		t.Fatalf("data = %+v", d)
	}
	o := d.PostOffices[0]
	// 0.1 degree of latitude on the mean sphere: 11.1195 km, beyond 10 km, so this is the fallback.
	if d.WithinRadius || o.DistanceKm != 11.12 || o.Pincode != "110001" || o.Location.Latitude != 28.2 || o.ID != 1 || o.DeliveryStatus != "Delivery" {
		t.Errorf("office = %+v within=%v", o, d.WithinRadius)
	}
	if res.Header.Get("ETag") == "" || res.Header.Get("Cache-Control") == "" {
		t.Errorf("caching headers missing: %v", res.Header)
	}
	var shared httpapi.NearbyData
	apitest.Do(t, h, http.MethodGet, "/api/v1/pincodes/nearby?latitude=26&longitude=80&limit=50", "", "").Decode(t, &shared)
	if len(shared.PostOffices) != 10 || shared.PostOffices[0].LocationQuality != "approximate" || shared.PostOffices[0].PostOffice != "Shared 0 B.O" {
		t.Errorf("shared point: %d offices, first %+v", len(shared.PostOffices), shared.PostOffices[0])
	}
	var all httpapi.NearbyData
	apitest.Do(t, h, http.MethodGet, "/api/v1/pincodes/nearby?latitude=28.5&longitude=77.5&radius=100&limit=50", "", "").Decode(t, &all)
	for _, o := range all.PostOffices {
		if o.PostOffice == "Epsilon B.O" {
			t.Errorf("an office without a location was returned")
		}
	}
	// The literal route wins over /pincodes/{pincode}.
	if res := apitest.Do(t, h, http.MethodGet, "/api/v1/pincodes/110001", "", ""); res.Status != http.StatusOK {
		t.Errorf("/pincodes/110001 = %d", res.Status)
	}
}

func TestNearbyBadInput(t *testing.T) {
	h := geoHandler(t, false)
	tests := []struct {
		name, query string
		wantStatus  int
		wantFields  []string
	}{
		{"nothing (not captured by /pincodes/{pincode})", "", 400, []string{"latitude", "longitude"}},
		{"missing longitude", "latitude=28", 400, []string{"longitude"}},
		{"empty latitude", "latitude=&longitude=77", 400, []string{"latitude"}},
		{"latitude out of range", "latitude=91&longitude=77", 422, []string{"latitude"}},
		{"longitude out of range", "latitude=28&longitude=-181", 422, []string{"longitude"}},
		{"latitude not a number", "latitude=abc&longitude=77", 422, []string{"latitude"}},
		{"loose text in latitude", "latitude=" + url.QueryEscape("28.6, 77.2") + "&longitude=77", 422, []string{"latitude"}},
		{"radius too small", "latitude=28&longitude=77&radius=0.05", 422, []string{"radius"}},
		{"radius too large", "latitude=28&longitude=77&radius=101", 422, []string{"radius"}},
		{"limit zero", "latitude=28&longitude=77&limit=0", 422, []string{"limit"}},
		{"limit too large", "latitude=28&longitude=77&limit=51", 422, []string{"limit"}},
		{"limit not an integer", "latitude=28&longitude=77&limit=2.5", 422, []string{"limit"}},
		{"point and latitude", "point=28,77&latitude=28", 422, []string{"point"}},
		{"unreadable point", "point=somewhere", 422, []string{"point"}},
		{"point with three numbers", "point=" + url.QueryEscape("28, 77, 3"), 422, []string{"point"}},
		{"point out of range", "point=" + url.QueryEscape("95, 77"), 422, []string{"point"}},
		{"point naming one axis twice", "point=" + url.QueryEscape("28N 77N"), 422, []string{"point"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := apitest.Do(t, h, http.MethodGet, "/api/v1/pincodes/nearby?"+tt.query, "", "")
			if res.Status != tt.wantStatus {
				t.Fatalf("status = %d (%s %v), want %d", res.Status, res.Message, res.Errors, tt.wantStatus)
			}
			for _, f := range tt.wantFields {
				if len(res.Errors[f]) == 0 {
					t.Errorf("errors = %v, want an entry for %q", res.Errors, f)
				}
			}
		})
	}
}

// nearestAnswer is one office of a /digipin/nearest answer: name and match.
type nearestAnswer struct{ name, by string }

func TestDigipinNearest(t *testing.T) {
	withB, withoutB := geoHandler(t, true), geoHandler(t, false)
	b, d := "boundary", "distance"
	tests := []struct {
		name  string
		h     http.Handler
		query string
		want  []nearestAnswer
	}{
		{"no boundary data: distance alone", withoutB, "latitude=28.2&longitude=77.25&limit=3",
			[]nearestAnswer{{"Alpha H.O", d}, {"Delta S.O", d}, {"Gamma B.O", d}}},
		{"inside 110001: its offices first", withB, "latitude=28.2&longitude=77.25&limit=3",
			[]nearestAnswer{{"Alpha H.O", b}, {"Beta S.O", b}, {"Delta S.O", d}}},
		{"in the hole: no polygon, distance", withB, "latitude=28.5&longitude=77.42&limit=2",
			[]nearestAnswer{{"Delta S.O", d}, {"Alpha H.O", d}}},
		{"on the island in the hole", withB, "latitude=28.5&longitude=77.5&limit=2",
			[]nearestAnswer{{"Delta S.O", b}, {"Alpha H.O", d}}},
		{"on the hole's edge: 110001", withB, "latitude=28.4&longitude=77.5&limit=3",
			[]nearestAnswer{{"Alpha H.O", b}, {"Beta S.O", b}, {"Delta S.O", d}}},
		{"on the shared edge: both PINs", withB, "latitude=28.5&longitude=78&limit=4",
			[]nearestAnswer{{"Gamma B.O", b}, {"Beta S.O", b}, {"Alpha H.O", b}, {"Delta S.O", d}}},
		{"limit cuts the boundary matches", withB, "latitude=28.5&longitude=78&limit=1",
			[]nearestAnswer{{"Gamma B.O", b}}},
		{"default limit 3, point parameter", withB, "point=" + url.QueryEscape("28.2, 77.25"),
			[]nearestAnswer{{"Alpha H.O", b}, {"Beta S.O", b}, {"Delta S.O", d}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := apitest.Do(t, tt.h, http.MethodGet, "/api/v1/digipin/nearest?"+tt.query, "", "")
			if res.Status != http.StatusOK {
				t.Fatalf("status = %d %s %v", res.Status, res.Message, res.Errors)
			}
			var data httpapi.NearestData
			res.Decode(t, &data)
			got := make([]nearestAnswer, len(data.PostOffices))
			for i, o := range data.PostOffices {
				got[i] = nearestAnswer{o.PostOffice, o.MatchedBy}
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("offices = %v, want %v", got, tt.want)
			}
			want, _ := digipin.Encode(data.Latitude, data.Longitude)
			if data.Digipin != want || data.PostOffices[0].DistanceKm < 0 {
				t.Errorf("digipin = %q, want %q", data.Digipin, want)
			}
		})
	}
}

func TestDigipinNearestBadInput(t *testing.T) {
	h := geoHandler(t, true)
	tests := []struct {
		name, query string
		wantStatus  int
		wantField   string
	}{
		{"missing", "", 400, "latitude"},
		{"missing longitude", "latitude=28", 400, "longitude"},
		{"latitude below the grid", "latitude=2&longitude=77", 422, "latitude"},
		{"longitude beyond the grid", "latitude=28&longitude=100", 422, "longitude"},
		{"limit too large", "latitude=28&longitude=77&limit=11", 422, "limit"},
		{"limit zero", "latitude=28&longitude=77&limit=0", 422, "limit"},
		{"point outside the grid", "point=" + url.QueryEscape("1, 70"), 422, "point"},
		{"point and longitude", "point=28,77&longitude=77", 422, "point"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/nearest?"+tt.query, "", "")
			if res.Status != tt.wantStatus || len(res.Errors[tt.wantField]) == 0 {
				t.Fatalf("status = %d %v, want %d on %q", res.Status, res.Errors, tt.wantStatus, tt.wantField)
			}
		})
	}
}

func TestDigipinNeighbours(t *testing.T) {
	h := apitest.NewHandler(t, httpapi.Routes{})
	tests := []struct {
		code           string
		wantLevel      int
		wantDirections []string
	}{
		{"39J-49L-L8T4", 10, []string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}},
		{"39j49ll8t4", 10, []string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}},
		{"3", 1, []string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}},
		{"F", 1, []string{"E", "SE", "S"}},            // the grid's north-west corner
		{"8", 1, []string{"S", "SW", "W"}},            // north-east corner
		{"L", 1, []string{"N", "NE", "E"}},            // south-west corner
		{"9", 1, []string{"E", "SE", "S", "SW", "W"}}, // north edge
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/"+url.PathEscape(tt.code)+"/neighbours", "", "")
			if res.Status != http.StatusOK {
				t.Fatalf("status = %d %s %v", res.Status, res.Message, res.Errors)
			}
			var d httpapi.NeighboursData
			res.Decode(t, &d)
			dirs := make([]string, len(d.Neighbours))
			for i, n := range d.Neighbours {
				dirs[i] = n.Direction
				if n.Level != tt.wantLevel || n.Geometry != nil {
					t.Errorf("neighbour %+v: level %d, want %d, no geometry", n, n.Level, tt.wantLevel)
				}
				if n.Direction == "N" && n.Bounds.MinLatitude != d.Cell.Bounds.MaxLatitude {
					t.Errorf("north neighbour %+v does not touch %+v", n.Bounds, d.Cell.Bounds)
				}
			}
			if !slices.Equal(dirs, tt.wantDirections) || d.Cell.Level != tt.wantLevel {
				t.Fatalf("directions = %v level %d, want %v level %d", dirs, d.Cell.Level, tt.wantDirections, tt.wantLevel)
			}
		})
	}
	var d httpapi.NeighboursData
	apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/39J/neighbours?geometry=true", "", "").Decode(t, &d)
	if d.Cell.Digipin != "39J" || d.Cell.Geometry == nil || len(d.Neighbours) != 8 || d.Neighbours[0].Geometry == nil {
		t.Errorf("geometry=true: %+v", d.Cell)
	}
	for _, bad := range []string{"39A", "39J-49L-L8T4-F", "%20"} {
		if res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/"+bad+"/neighbours", "", ""); res.Status != 422 || res.Errors["code"] == nil {
			t.Errorf("%q = %d %v, want 422 on code", bad, res.Status, res.Errors)
		}
	}
}

func TestDigipinEncodePoint(t *testing.T) {
	h := apitest.NewHandler(t, httpapi.Routes{})
	tests := []struct {
		name, ctype, body string
		wantStatus        int
		wantField         string
		wantCode          string
	}{
		{"json point", apitest.JSONType, `{"point":"28.622788, 77.213033"}`, 200, "", "39J-49L-L8T4"},
		{"form point", apitest.FormType, "point=" + url.QueryEscape("28.622788 77.213033"), 200, "", "39J-49L-L8T4"},
		{"dms point", apitest.JSONType, `{"point":"12°58'17.76\"N 77°35'40.56\"E"}`, 200, "", "4P3-JK8-52C9"},
		{"point and latitude", apitest.JSONType, `{"point":"28.6, 77.2","latitude":28.6}`, 422, "point", ""},
		{"point outside the grid", apitest.JSONType, `{"point":"1, 70"}`, 422, "point", ""},
		{"unreadable point", apitest.JSONType, `{"point":"north"}`, 422, "point", ""},
		{"latitude only", apitest.JSONType, `{"latitude":28.6}`, 400, "longitude", ""},
		{"numbers stay strict", apitest.JSONType, `{"latitude":"28.6","longitude":77.2}`, 422, "latitude", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/encode", tt.ctype, tt.body)
			if res.Status != tt.wantStatus {
				t.Fatalf("status = %d (%s %v), want %d", res.Status, res.Message, res.Errors, tt.wantStatus)
			}
			if tt.wantField != "" && len(res.Errors[tt.wantField]) == 0 {
				t.Errorf("errors = %v, want an entry for %q", res.Errors, tt.wantField)
			}
			if tt.wantCode != "" {
				var d httpapi.EncodeData
				res.Decode(t, &d)
				if d.Digipin != tt.wantCode || strconv.FormatFloat(d.Latitude, 'f', -1, 64) == "0" {
					t.Errorf("data = %+v, want %s", d, tt.wantCode)
				}
			}
		})
	}
}

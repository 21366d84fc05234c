// Command bare is the load test's yardstick: a bare net/http server that
// answers GET /api/v1/pincodes/{pin} and GET /api/v1/pincodes/nearby
// (latitude and longitude; the default radius and limit) with the same bytes
// as Pinsight (the offices from the embedded snapshot, in the same envelope
// and order, with the zero review counts of a server without reviews),
// looked up in a map or the spatial index and encoded with encoding/json on
// every request, and nothing else: no middleware, no cache, no logging.
// Pinsight's throughput is reported as a ratio to it; tests/load/run.sh
// checks that both answer the same bytes.
//
// With -preencoded it is the ceiling instead: every answer encoded once at
// start and written from a map with its Content-Length, what net/http does
// with these bytes and no work at all. Nearby answers are pre-encoded for
// the points of -points (a file of "latitude longitude" lines, as
// tests/load/run.sh writes them), keyed by the query nearby.lua and mix.lua
// send for them; other points answer 404 there.
//
//	go run ./tests/load/bare -addr 127.0.0.1:18081
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"log"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// office mirrors the fields of one office in Pinsight's lookup answer.
type office struct {
	ID              int64     `json:"id"`
	Pincode         string    `json:"pincode"`
	PostOffice      string    `json:"post_office"`
	BranchType      string    `json:"branch_type"`
	DeliveryStatus  string    `json:"delivery_status"`
	Circle          string    `json:"circle"`
	Region          *string   `json:"region"`
	Division        string    `json:"division"`
	District        *string   `json:"district"`
	State           *string   `json:"state"`
	DistrictID      *int      `json:"district_id"`
	StateID         *int      `json:"state_id"`
	Location        *location `json:"location"`
	LocationQuality string    `json:"location_quality"`
	Digipin         *string   `json:"digipin"`
	ReviewsCount    int       `json:"reviews_count"`
	LikesCount      int       `json:"likes_count"`
	Rating          *float64  `json:"rating"`
}

type location struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

type lookup struct {
	Pincode     string   `json:"pincode"`
	Total       int      `json:"total"`
	PostOffices []office `json:"post_offices"`
}

type envelope struct {
	Success bool   `json:"success"`
	Data    lookup `json:"data"`
}

// nearbyOffice mirrors one office of Pinsight's nearby answer.
type nearbyOffice struct {
	ID              int64    `json:"id"`
	Pincode         string   `json:"pincode"`
	PostOffice      string   `json:"post_office"`
	BranchType      string   `json:"branch_type"`
	DeliveryStatus  string   `json:"delivery_status"`
	District        *string  `json:"district"`
	State           *string  `json:"state"`
	Location        location `json:"location"`
	LocationQuality string   `json:"location_quality"`
	DistanceKm      float64  `json:"distance_km"`
	ReviewsCount    int      `json:"reviews_count"`
	LikesCount      int      `json:"likes_count"`
	Rating          *float64 `json:"rating"`
}

type nearbyData struct {
	Latitude     float64        `json:"latitude"`
	Longitude    float64        `json:"longitude"`
	RadiusKm     float64        `json:"radius_km"`
	WithinRadius bool           `json:"within_radius"`
	PostOffices  []nearbyOffice `json:"post_offices"`
}

type nearbyEnvelope struct {
	Success bool       `json:"success"`
	Data    nearbyData `json:"data"`
}

// Pinsight's defaults for a nearby query without radius and limit.
const (
	nearbyRadiusKm = 10
	nearbyLimit    = 5
)

// encode writes v as Pinsight's encoder does (no HTML escaping).
func encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optInt(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

// record is the answer's form of o.
func record(o postal.PostOffice) office {
	r := office{
		ID: o.ID, Pincode: string(o.Pincode), PostOffice: o.Name, BranchType: postal.BranchTypeName(o.OfficeType),
		DeliveryStatus: o.Delivery, Circle: o.Circle, Region: optString(o.Region), Division: o.Division,
		District: optString(o.District), State: optString(o.State), DistrictID: optInt(o.DistrictID), StateID: optInt(o.StateID),
		LocationQuality: string(o.Quality),
	}
	if o.Location != nil {
		r.Location = &location{o.Location.Latitude, o.Location.Longitude}
		if c, err := digipin.EncodeCode(o.Location.Latitude, o.Location.Longitude); err == nil {
			s := c.String()
			r.Digipin = &s
		}
	}
	return r
}

// nearbyAnswer is Pinsight's answer for the offices near (lat, lon) with the
// default radius and limit: the closest at any distance when none lies
// within the radius.
func nearbyAnswer(store *memory.PostalStore, lat, lon float64) (nearbyEnvelope, error) {
	q := geo.NearQuery{Point: geo.Point{Lat: lat, Lon: lon}, RadiusKm: nearbyRadiusKm, Limit: nearbyLimit}
	found, err := store.NearestOffices(context.Background(), q)
	within := true
	if err == nil && len(found) == 0 {
		q.RadiusKm, within = 0, false
		found, err = store.NearestOffices(context.Background(), q)
	}
	if err != nil {
		return nearbyEnvelope{}, err
	}
	offices := make([]nearbyOffice, len(found))
	for i, n := range found {
		o := n.Office
		offices[i] = nearbyOffice{
			ID: o.ID, Pincode: string(o.Pincode), PostOffice: o.Name, BranchType: postal.BranchTypeName(o.OfficeType),
			DeliveryStatus: o.Delivery, District: optString(o.District), State: optString(o.State),
			Location:        location{o.Location.Latitude, o.Location.Longitude},
			LocationQuality: string(o.Quality), DistanceKm: math.Round(n.DistanceKm*1000) / 1000,
		}
	}
	return nearbyEnvelope{Success: true, Data: nearbyData{Latitude: lat, Longitude: lon, RadiusKm: nearbyRadiusKm,
		WithinRadius: within, PostOffices: offices}}, nil
}

// nearbyQuery is the query nearby.lua and mix.lua send for a point.
func nearbyQuery(lat, lon string) string { return "latitude=" + lat + "&longitude=" + lon }

// readPoints reads the "latitude longitude" lines of a points file.
func readPoints(path string) ([][2]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var points [][2]string
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			points = append(points, [2]string{f[0], f[1]})
		}
	}
	return points, nil
}

// writeJSON writes a pre-encoded answer with its length.
func writeJSON(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b)
}

func main() {
	addr := flag.String("addr", "127.0.0.1:18081", "listen address")
	preencoded := flag.Bool("preencoded", false, "encode every answer once at start (the ceiling)")
	pointsFile := flag.String("points", "", `with -preencoded: the "latitude longitude" file whose nearby answers to pre-encode`)
	flag.Parse()
	res, err := indiapost.Load(snapshot.Files())
	if err != nil {
		log.Fatal(err)
	}
	store := memory.NewPostalStore(res.Dataset)
	lookUp := func(pin postal.Pincode) (envelope, bool) {
		found, err := store.OfficesByPincode(context.Background(), pin)
		if err != nil || len(found) == 0 {
			return envelope{}, false
		}
		offices := make([]office, len(found))
		for i, o := range found {
			offices[i] = record(o)
		}
		return envelope{Success: true, Data: lookup{Pincode: string(pin), Total: len(offices), PostOffices: offices}}, true
	}
	mux := http.NewServeMux()
	if !*preencoded {
		mux.HandleFunc("GET /api/v1/pincodes/{pin}", func(w http.ResponseWriter, r *http.Request) {
			e, ok := lookUp(postal.Pincode(r.PathValue("pin")))
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_ = encode(w, e)
		})
		mux.HandleFunc("GET /api/v1/pincodes/nearby", func(w http.ResponseWriter, r *http.Request) {
			lat, err1 := strconv.ParseFloat(r.URL.Query().Get("latitude"), 64)
			lon, err2 := strconv.ParseFloat(r.URL.Query().Get("longitude"), 64)
			if err1 != nil || err2 != nil {
				http.Error(w, "latitude and longitude", http.StatusBadRequest)
				return
			}
			e, err := nearbyAnswer(store, lat, lon)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_ = encode(w, e)
		})
	} else {
		answers := map[postal.Pincode][]byte{}
		for _, o := range res.Dataset.Offices {
			if _, done := answers[o.Pincode]; done {
				continue
			}
			if e, ok := lookUp(o.Pincode); ok {
				var b bytes.Buffer
				_ = encode(&b, e)
				answers[o.Pincode] = b.Bytes()
			}
		}
		near := map[string][]byte{}
		if *pointsFile != "" {
			points, err := readPoints(*pointsFile)
			if err != nil {
				log.Fatal(err)
			}
			for _, p := range points {
				lat, err1 := strconv.ParseFloat(p[0], 64)
				lon, err2 := strconv.ParseFloat(p[1], 64)
				if err1 != nil || err2 != nil {
					log.Fatalf("bad point %q %q", p[0], p[1])
				}
				e, err := nearbyAnswer(store, lat, lon)
				if err != nil {
					log.Fatal(err)
				}
				var b bytes.Buffer
				_ = encode(&b, e)
				near[nearbyQuery(p[0], p[1])] = b.Bytes()
			}
		}
		mux.HandleFunc("GET /api/v1/pincodes/nearby", func(w http.ResponseWriter, r *http.Request) {
			b, ok := near[r.URL.RawQuery]
			if !ok {
				http.NotFound(w, r)
				return
			}
			writeJSON(w, b)
		})
		mux.HandleFunc("GET /api/v1/pincodes/{pin}", func(w http.ResponseWriter, r *http.Request) {
			b, ok := answers[postal.Pincode(r.PathValue("pin"))]
			if !ok {
				http.NotFound(w, r)
				return
			}
			writeJSON(w, b)
		})
	}
	srv := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(srv.ListenAndServe())
}

// Command bare is the load test's yardstick: a bare net/http server that
// answers GET /api/v1/pincodes/{pin} with the same bytes as Pinsight (the
// PIN's offices from the embedded snapshot, in the same envelope and order,
// with the zero review counts of a server without reviews), looked up in a
// map and encoded with encoding/json on every request, and nothing else: no
// middleware, no cache, no logging. Pinsight's throughput is reported as a
// ratio to it; tests/load/run.sh checks that both answer the same bytes.
//
// With -preencoded it is the ceiling instead: every answer encoded once at
// start and written from a map with its Content-Length, what net/http does
// with these bytes and no work at all.
//
//	go run ./tests/load/bare -addr 127.0.0.1:18081
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"strconv"
	"time"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/postal"
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

func main() {
	addr := flag.String("addr", "127.0.0.1:18081", "listen address")
	preencoded := flag.Bool("preencoded", false, "encode every answer once at start (the ceiling)")
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
			_ = json.NewEncoder(w).Encode(e)
		})
	} else {
		answers := map[postal.Pincode][]byte{}
		for _, o := range res.Dataset.Offices {
			if _, done := answers[o.Pincode]; done {
				continue
			}
			if e, ok := lookUp(o.Pincode); ok {
				var b bytes.Buffer
				_ = json.NewEncoder(&b).Encode(e)
				answers[o.Pincode] = b.Bytes()
			}
		}
		mux.HandleFunc("GET /api/v1/pincodes/{pin}", func(w http.ResponseWriter, r *http.Request) {
			b, ok := answers[postal.Pincode(r.PathValue("pin"))]
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", strconv.Itoa(len(b)))
			_, _ = w.Write(b)
		})
	}
	srv := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(srv.ListenAndServe())
}

// Command bare is the load test's yardstick: a bare net/http server that
// answers GET /api/v1/pincodes/{pin} with a JSON envelope shaped like
// Pinsight's (eight post offices, the average per PIN in the directory),
// encoded with encoding/json on every request, and nothing else: no
// middleware, no lookup. Pinsight's throughput is reported as a ratio to it.
//
//	go run ./tests/load/bare -addr 127.0.0.1:18081
package main

import (
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"time"
)

// office mirrors the fields of one office in Pinsight's lookup answer.
type office struct {
	ID              int      `json:"id"`
	Pincode         string   `json:"pincode"`
	PostOffice      string   `json:"post_office"`
	BranchType      string   `json:"branch_type"`
	DeliveryStatus  string   `json:"delivery_status"`
	Circle          string   `json:"circle"`
	Region          string   `json:"region"`
	Division        string   `json:"division"`
	District        string   `json:"district"`
	State           string   `json:"state"`
	DistrictID      int      `json:"district_id"`
	StateID         int      `json:"state_id"`
	Location        location `json:"location"`
	LocationQuality string   `json:"location_quality"`
	Digipin         string   `json:"digipin"`
	ReviewsCount    int      `json:"reviews_count"`
	LikesCount      int      `json:"likes_count"`
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

// officesPerPin is the directory's average number of offices per PIN.
const officesPerPin = 8

func main() {
	addr := flag.String("addr", "127.0.0.1:18081", "listen address")
	flag.Parse()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/pincodes/{pin}", func(w http.ResponseWriter, r *http.Request) {
		pin := r.PathValue("pin")
		offices := make([]office, officesPerPin)
		for i := range offices {
			offices[i] = office{
				ID: i + 1, Pincode: pin, PostOffice: "Connaught Place SO", BranchType: "Sub Office",
				DeliveryStatus: "Delivery", Circle: "Delhi Circle", Region: "DivReportingCircle",
				Division: "New Delhi Central Division", District: "New Delhi", State: "Delhi", DistrictID: 79, StateID: 7,
				Location: location{28.6174167, 77.2129167}, LocationQuality: "exact", Digipin: "39J-42F-J65M",
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(envelope{Success: true, Data: lookup{Pincode: pin, Total: len(offices), PostOffices: offices}})
	})
	srv := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(srv.ListenAndServe())
}

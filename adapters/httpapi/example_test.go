package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/app/postaldir"
)

// A host program serves the postal and DIGIPIN API under /geo on its own
// mux, beside its own routes, with its own server.
func ExampleHandler() {
	dir, err := postaldir.Open(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	api, err := httpapi.Handler(httpapi.HandlerOptions{BasePath: "/geo",
		Routes: httpapi.Routes{Directory: dir.Directory, Geocoder: dir.Geocoder}})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/geo/", api)
	// A real host now runs http.ListenAndServe(":8080", mux) or its own server.

	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/geo/api/v1/pincodes/110001", nil))
	var body struct {
		Data struct {
			Pincode string `json:"pincode"`
		} `json:"data"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &body)
	fmt.Println(rec.Code, body.Data.Pincode)

	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/geo/api/v1/digipin/nearest?point=28.6328,77.2197&limit=1", nil))
	var nearest struct {
		Data struct {
			PostOffices []struct {
				Pincode string `json:"pincode"`
			} `json:"post_offices"`
		} `json:"data"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &nearest)
	fmt.Println(rec.Code, len(nearest.Data.PostOffices))

	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/geo/openapi.json", nil))
	var doc struct {
		Servers []struct{ URL string } `json:"servers"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &doc)
	fmt.Println(rec.Code, doc.Servers[0].URL)
	// Output:
	// 200 110001
	// 200 1
	// 200 /geo
}

package audit_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/pinsight/pinsight/adapters/fetch/audit"
	"github.com/pinsight/pinsight/domain/pagecheck"
)

func ExampleURL() {
	// A local page stands in for a site; its exact host:port must be
	// allowed, as the guard refuses loopback addresses.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><title>Garden tools</title></head><body><h1>Spades</h1></body></html>`)
	}))
	defer srv.Close()

	a, err := audit.URL(context.Background(), srv.URL+"/", audit.Options{
		AllowTargets: []string{srv.Listener.Addr().String()},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("status", a.Status)
	for _, c := range a.Results[pagecheck.SEO] {
		if c.ID == "title" || c.ID == "meta_description" {
			fmt.Println(c.ID, c.Passed, c.Errors)
		}
	}
	for _, c := range a.Results[pagecheck.Security] {
		if c.ID == "https_encryption" {
			fmt.Println(c.ID, c.Passed)
		}
	}
	fmt.Println("rating matches score:", a.Rating == pagecheck.RatingFor(a.Score))
	// Output:
	// status 200
	// title true []
	// meta_description false [missing]
	// https_encryption false
	// rating matches score: true
}

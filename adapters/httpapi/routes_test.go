package httpapi_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/releases"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/app/reviews"
	"github.com/pinsight/pinsight/app/webhooks"
	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// nopPoster accepts every webhook delivery.
type nopPoster struct{}

func (nopPoster) Check(context.Context, string) error { return nil }
func (nopPoster) Post(context.Context, string, webhook.Message) (int, error) {
	return http.StatusOK, nil
}

// fullRoutes are routes with every use case, over the memory stores.
func fullRoutes() httpapi.Routes {
	r, _ := fullRoutesAndStores()
	return r
}

// fixtureStores are stores and the queue behind fullRoutes' use cases.
type fixtureStores struct {
	Crawls  *memory.CrawlStore
	Reports *memory.ReportStore
	Jobs    *memory.Jobs // never started
}

// fullRoutesAndStores is fullRoutes with the stores its use cases use.
func fullRoutesAndStores() (httpapi.Routes, fixtureStores) {
	reportStore, reviewStore := memory.NewReportStore(), memory.NewReviewStore()
	postalStore := memory.NewPostalStore(porttest.PostalDataset())
	dir := directory.NewWithReviews(postalStore, reviewStore)
	jobs, crawlStore := memory.NewJobs(reportStore, ports.JobSettings{}), memory.NewCrawlStore(reportStore)
	jobs.Crawls(crawlStore)
	return httpapi.Routes{
		Directory: dir, Geocoder: geocode.New(postalStore, nil), Releases: releases.New(memory.NewReleaseStore()),
		Accounts: accounts.New(memory.NewAccountStore(), apitest.Passwords),
		Reports:  reports.New(reportStore, apitest.NewFakeAnalyser(), apitest.Passwords), Projects: reports.NewProjects(reportStore),
		Reviews:  reviews.New(dir, reviewStore, reviews.Config{Limiter: memory.NewRateLimiter()}),
		Webhooks: webhooks.New(reportStore, jobs, nopPoster{}, nil),
		// No crawl runs here (the queue is never started): no fetcher.
		Crawls: crawls.New(crawlStore, jobs, nil, apitest.Passwords, crawls.Config{Keys: reportStore, Limiter: memory.NewRateLimiter()}),
	}, fixtureStores{Crawls: crawlStore, Reports: reportStore, Jobs: jobs}
}

// operations registers r and returns its operation IDs, or the error.
func operations(r httpapi.Routes) ([]string, error) {
	api := httpapi.NewAPI(http.NewServeMux())
	if err := httpapi.Register(api, r); err != nil {
		return nil, err
	}
	var ids []string
	for _, item := range api.OpenAPI().Paths {
		for _, op := range []*huma.Operation{item.Get, item.Put, item.Post, item.Delete, item.Patch} {
			if op != nil {
				ids = append(ids, op.OperationID)
			}
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// TestRoutesMissingUseCase: a use case set without one its operations
// need makes Handler fail, naming the operations and the missing use case;
// nothing is served.
func TestRoutesMissingUseCase(t *testing.T) {
	full := fullRoutes()
	cases := []struct {
		name    string
		drop    func(*httpapi.Routes)
		missing string
		ops     []string
	}{
		{"geocoder without directory", func(r *httpapi.Routes) { r.Directory = nil }, "Routes.Directory", []string{"digipin-nearest"}},
		{"site analysis without accounts", func(r *httpapi.Routes) { r.Accounts = nil }, "Routes.Accounts",
			[]string{"create-report", "get-report-history", "/r/{token}", "list-projects", "put-review", "list-my-reviews", "create-webhook", "create-crawl"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := full
			c.drop(&r)
			h, err := httpapi.Handler(httpapi.HandlerOptions{Routes: r})
			if err == nil || h != nil {
				t.Fatalf("Handler = %v, %v; want an error", h, err)
			}
			for _, want := range append([]string{c.missing}, c.ops...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not name %s", err, want)
				}
			}
		})
	}
	for _, only := range []httpapi.Routes{{Reports: full.Reports}, {Projects: full.Projects}, {Reviews: full.Reviews}, {Webhooks: full.Webhooks}, {Crawls: full.Crawls}, {Geocoder: full.Geocoder}, {Releases: full.Releases}} {
		_, err := httpapi.Handler(httpapi.HandlerOptions{Routes: only})
		if err == nil {
			t.Errorf("Handler(%+v) succeeded; want an error naming its operations", only)
		}
	}
}

// TestRoutesGroups: each use case serves exactly the operations its group
// names, so a missing-use-case error lists every operation left out; the
// operations outside the groups are those of health, DIGIPIN, Directory
// and Accounts, which need no other use case.
func TestRoutesGroups(t *testing.T) {
	full := fullRoutes()
	all, err := operations(full)
	if err != nil {
		t.Fatal(err)
	}
	drop := map[string]func(*httpapi.Routes){
		"Geocoder": func(r *httpapi.Routes) { r.Geocoder = nil },
		"Reports":  func(r *httpapi.Routes) { r.Reports = nil },
		"Projects": func(r *httpapi.Routes) { r.Projects = nil },
		"Reviews":  func(r *httpapi.Routes) { r.Reviews = nil },
		"Webhooks": func(r *httpapi.Routes) { r.Webhooks = nil },
		"Crawls":   func(r *httpapi.Routes) { r.Crawls = nil },
		"Releases": func(r *httpapi.Routes) { r.Releases = nil },
	}
	groups := httpapi.RouteGroups(full)
	if len(groups) != len(drop) {
		t.Fatalf("groups %v; the test knows %d", groups, len(drop))
	}
	for field, ops := range groups {
		r := full
		drop[field](&r)
		without, err := operations(r)
		if err != nil {
			t.Fatalf("without %s: %v", field, err)
		}
		var gone []string
		for _, id := range all {
			if !slices.Contains(without, id) {
				gone = append(gone, id)
			}
		}
		var named []string
		for _, op := range ops {
			if !strings.Contains(op, "/") { // the report page is no operation of the document
				named = append(named, op)
			}
		}
		slices.Sort(named)
		if !slices.Equal(gone, named) {
			t.Errorf("Routes.%s serves %v; its group names %v", field, gone, named)
		}
	}
}

// TestRoutesDirectoryAlone: the directory alone serves the postal
// operations, offices near a point included, and not digipin-nearest,
// which answers 404 as an unknown route does.
func TestRoutesDirectoryAlone(t *testing.T) {
	dir := directory.New(memory.NewPostalStore(porttest.PostalDataset()))
	h := apitest.NewHandler(t, httpapi.Routes{Directory: dir})
	res := apitest.Do(t, h, http.MethodGet, "/api/v1/pincodes/nearby?latitude=25.61&longitude=85.14&radius=5", "", "")
	var near struct {
		WithinRadius bool `json:"within_radius"`
		PostOffices  []struct {
			Pincode string `json:"pincode"`
		} `json:"post_offices"`
	}
	res.Decode(t, &near)
	if res.Status != http.StatusOK || !near.WithinRadius || len(near.PostOffices) == 0 || near.PostOffices[0].Pincode != "800001" {
		t.Errorf("nearby = %d %+v; want 200 with Patna's offices (800001) first", res.Status, near)
	}
	if res := apitest.Do(t, h, http.MethodGet, "/api/v1/pincodes/800001", "", ""); res.Status != http.StatusOK {
		t.Errorf("lookup = %d, want 200", res.Status)
	}
	if res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/nearest?latitude=25.61&longitude=85.14", "", ""); res.Status != http.StatusNotFound || res.Code != "not_found" {
		t.Errorf("digipin/nearest without a geocoder = %d %q, want 404 not_found", res.Status, res.Code)
	}
}

package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	gc "github.com/pinsight/pinsight/adapters/httpapi/internal/genclient"
)

// TestGeneratedClientFlow drives the API with the client oapi-codegen
// generates from /openapi-3.0.json (internal/genclient, kept current by
// TestGeneratedClientIsCurrent), as a newcomer would: a pincode lookup,
// offices nearby, a DIGIPIN encoding, register and login, a report
// created and listed, the projects, and a crawl created, read and listed. Every answer decodes into the
// generated types, and every list comes back a list, empty or not, never
// null.
func TestGeneratedClientFlow(t *testing.T) {
	srv := httptest.NewServer(apitest.NewHandler(t, fullRoutes()))
	defer srv.Close()
	ctx := context.Background()
	c, err := gc.NewClientWithResponses(srv.URL, gc.WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}

	pin, err := c.PincodeLookupWithResponse(ctx, "400001")
	if err != nil || pin.JSON200 == nil || len(pin.JSON200.Data.PostOffices) != 1 || pin.JSON200.Data.PostOffices[0].PostOffice != "Mumbai GPO" {
		t.Fatalf("pincode lookup = %v %s", err, body(pin.Body))
	}
	lat, lon, radius := 18.94, 72.835, 5.0
	near, err := c.PincodeNearbyWithResponse(ctx, &gc.PincodeNearbyParams{Latitude: &lat, Longitude: &lon, Radius: &radius})
	if err != nil || near.JSON200 == nil || len(near.JSON200.Data.PostOffices) == 0 || near.JSON200.Data.PostOffices[0].Pincode != "400001" {
		t.Fatalf("nearby = %v %s", err, body(near.Body))
	}
	far := 0.0
	empty, err := c.PincodeNearbyWithResponse(ctx, &gc.PincodeNearbyParams{Latitude: &far, Longitude: &far, Radius: &radius})
	if err != nil || empty.JSON200 == nil || empty.JSON200.Data.PostOffices == nil {
		t.Errorf("nearby far from any office = %v %s: want an empty list", err, body(empty.Body))
	}
	enc, err := c.DigipinEncodeWithResponse(ctx, gc.DigipinEncodeJSONRequestBody{Latitude: &lat, Longitude: &lon})
	if err != nil || enc.JSON200 == nil || len(enc.JSON200.Data.Digipin) != 12 {
		t.Fatalf("digipin encode = %v %s", err, body(enc.Body))
	}

	creds := gc.CredentialsInputBody{Email: "newcomer@example.com", Password: "correct horse"}
	if reg, err := c.RegisterWithResponse(ctx, creds); err != nil || reg.StatusCode() != http.StatusCreated {
		t.Fatalf("register = %v %s", err, body(reg.Body))
	}
	login, err := c.LoginWithResponse(ctx, creds)
	if err != nil || login.JSON200 == nil || login.JSON200.Data.TokenType != "Bearer" {
		t.Fatalf("login = %v %s", err, body(login.Body))
	}
	bearer := gc.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+login.JSON200.Data.Token)
		return nil
	})
	authed, err := gc.NewClientWithResponses(srv.URL, gc.WithHTTPClient(srv.Client()), bearer)
	if err != nil {
		t.Fatal(err)
	}

	none, err := authed.ListReportsWithResponse(ctx, &gc.ListReportsParams{})
	if err != nil || none.JSON200 == nil || none.JSON200.Data.Reports == nil || len(none.JSON200.Data.Reports) != 0 {
		t.Fatalf("empty report list = %v %s", err, body(none.Body))
	}
	created, err := authed.CreateReportWithResponse(ctx, &gc.CreateReportParams{}, gc.CreateReportJSONRequestBody{Url: "https://example.com/"})
	if err != nil || created.JSON201 == nil || created.JSON201.Data.Results.Seo == nil {
		t.Fatalf("create report = %v %s", err, body(created.Body))
	}
	list, err := authed.ListReportsWithResponse(ctx, &gc.ListReportsParams{})
	if err != nil || list.JSON200 == nil || len(list.JSON200.Data.Reports) != 1 || list.JSON200.Data.Reports[0].Id != created.JSON201.Data.Id {
		t.Fatalf("report list = %v %s", err, body(list.Body))
	}
	projects, err := authed.ListProjectsWithResponse(ctx, &gc.ListProjectsParams{})
	if err != nil || projects.JSON200 == nil || len(projects.JSON200.Data.Projects) != 1 || projects.JSON200.Data.Projects[0].Project != "example.com" {
		t.Fatalf("projects = %v %s", err, body(projects.Body))
	}
	crawled, err := authed.CreateCrawlWithResponse(ctx, &gc.CreateCrawlParams{}, gc.CreateCrawlJSONRequestBody{Url: "https://example.com/"})
	if err != nil || crawled.JSON202 == nil || crawled.JSON202.Data.Status != "queued" || crawled.JSON202.Data.Issues == nil ||
		crawled.JSON202.Data.Settings.Include == nil || crawled.JSON202.Data.Settings.MaxPages != 500 {
		t.Fatalf("create crawl = %v %s", err, body(crawled.Body))
	}
	got, err := authed.GetCrawlWithResponse(ctx, crawled.JSON202.Data.Id)
	if err != nil || got.JSON200 == nil || got.JSON200.Data.Id != crawled.JSON202.Data.Id || got.JSON200.Data.Site != "example.com" {
		t.Fatalf("get crawl = %v %s", err, body(got.Body))
	}
	crawls, err := authed.ListCrawlsWithResponse(ctx, &gc.ListCrawlsParams{})
	if err != nil || crawls.JSON200 == nil || len(crawls.JSON200.Data.Crawls) != 1 || crawls.JSON200.Data.Meta.Total != 1 {
		t.Fatalf("crawl list = %v %s", err, body(crawls.Body))
	}
	if denied, err := c.ListProjectsWithResponse(ctx, &gc.ListProjectsParams{}); err != nil || denied.StatusCode() != http.StatusUnauthorized {
		t.Errorf("projects without a key = %v %s", err, body(denied.Body))
	}
}

// body shows an answer's body in a failure message.
func body(b []byte) string {
	if len(b) > 500 {
		b = b[:500]
	}
	return string(b)
}

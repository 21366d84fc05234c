package directory_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// patna is a directory of 15 offices in one district, 0.01° apart.
func patna(t *testing.T) *directory.Directory {
	t.Helper()
	var rows []postal.RawOffice
	for i := range 15 {
		rows = append(rows, postal.RawOffice{Row: i + 1, Name: fmt.Sprintf("Office %02d B.O", i), Pincode: fmt.Sprintf("8000%02d", 10+i),
			OfficeType: "BO", Delivery: "Delivery", District: "PATNA", State: "BIHAR",
			Latitude: fmt.Sprint(25.6 + float64(i)/100), Longitude: "85.1"})
	}
	return directory.New(memory.NewPostalStore(postal.Build(rows, nil, nil)))
}

// TestZeroPageIsTheFirst: a zero page is the first page of 10 items (it
// was an empty page with the total of the whole list); any size is
// accepted; negative fields are invalid.
func TestZeroPageIsTheFirst(t *testing.T) {
	dir, ctx := patna(t), context.Background()
	_, list, err := dir.DistrictOffices(ctx, "patna", paging.Page{})
	if err != nil || len(list.Items) != 10 || list.Total != 15 || list.Page != (paging.Page{Number: 1, PerPage: 10}) {
		t.Errorf("DistrictOffices(zero page) = %d items of %d, page %+v, %v; want 10 of 15, page 1 of 10", len(list.Items), list.Total, list.Page, err)
	}
	found, err := dir.SearchOffices(ctx, "office", paging.Page{Number: 2})
	if err != nil || len(found.Items) != 5 || found.Total != 15 || found.Page != (paging.Page{Number: 2, PerPage: 10}) {
		t.Errorf("SearchOffices(page 2) = %d items of %d, page %+v, %v; want 5 of 15", len(found.Items), found.Total, found.Page, err)
	}
	if found, err := dir.SearchOffices(ctx, "office", paging.Page{PerPage: 500}); err != nil || len(found.Items) != 15 {
		t.Errorf("SearchOffices(500 a page) = %d items, %v; want all 15 (limits are the transport's)", len(found.Items), err)
	}
	for _, tt := range []struct {
		page   paging.Page
		fields []string
	}{
		{paging.Page{Number: -1}, []string{"page"}},
		{paging.Page{PerPage: -1}, []string{"per_page"}},
		{paging.Page{Number: -1, PerPage: -5}, []string{"page", "per_page"}},
	} {
		_, err := dir.SearchOffices(ctx, "office", tt.page)
		var ve *postal.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != len(tt.fields) {
			t.Errorf("SearchOffices(%+v) err = %v, want invalid %v", tt.page, err, tt.fields)
			continue
		}
		for _, f := range tt.fields {
			if len(ve.Fields[f]) == 0 {
				t.Errorf("SearchOffices(%+v) err = %v, want %q invalid", tt.page, err, f)
			}
		}
	}
}

// TestNearbyQuery: zero fields take their defaults (5 offices, any
// distance), any radius and limit are accepted, nonsense is invalid on its
// field, and an empty radius falls back to the closest offices.
func TestNearbyQuery(t *testing.T) {
	dir, ctx := patna(t), context.Background()
	at := geo.Point{Lat: 25.6, Lon: 85.1}
	res, err := dir.Nearby(ctx, geo.NearQuery{Point: at})
	if err != nil || len(res.Offices) != directory.DefaultNearbyLimit || !res.WithinRadius || res.Offices[0].Office.Name != "Office 00 B.O" {
		t.Errorf("Nearby(zero radius and limit) = %+v, %v; want the 5 nearest at any distance", res, err)
	}
	if res, err := dir.Nearby(ctx, geo.NearQuery{Point: at, RadiusKm: 500, Limit: 500}); err != nil || len(res.Offices) != 15 {
		t.Errorf("Nearby(500 km, 500) = %d offices, %v; want all 15", len(res.Offices), err)
	}
	res, err = dir.Nearby(ctx, geo.NearQuery{Point: geo.Point{Lat: 20, Lon: 85.1}, RadiusKm: 1, Limit: 2})
	if err != nil || res.WithinRadius || len(res.Offices) != 2 || res.Offices[0].Office.Name != "Office 00 B.O" {
		t.Errorf("Nearby(nothing within 1 km) = %+v, %v; want the 2 closest, not within the radius", res, err)
	}
	for _, tt := range []struct {
		q     geo.NearQuery
		field string
	}{
		{geo.NearQuery{Point: at, RadiusKm: -1}, "radius"},
		{geo.NearQuery{Point: at, RadiusKm: math.NaN()}, "radius"},
		{geo.NearQuery{Point: at, RadiusKm: math.Inf(1)}, "radius"},
		{geo.NearQuery{Point: at, Limit: -1}, "limit"},
		{geo.NearQuery{Point: geo.Point{Lat: 91, Lon: 85}}, "latitude"},
		{geo.NearQuery{Point: geo.Point{Lat: 25, Lon: math.NaN()}}, "longitude"},
	} {
		_, err := dir.Nearby(ctx, tt.q)
		var ve *postal.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields[tt.field]) == 0 {
			t.Errorf("Nearby(%+v) err = %v, want %q invalid", tt.q, err, tt.field)
		}
	}
}

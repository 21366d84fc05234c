package mcp

import (
	"math"

	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
)

// office is a post office record, field for field the HTTP API's.
type office struct {
	ID              int64     `json:"id" jsonschema:"Stable for a dataset release."`
	Pincode         string    `json:"pincode"`
	PostOffice      string    `json:"post_office" jsonschema:"Name as published."`
	BranchType      string    `json:"branch_type" jsonschema:"Head Office, Sub Office or Branch Office."`
	DeliveryStatus  string    `json:"delivery_status" jsonschema:"Delivery or Non Delivery."`
	Circle          string    `json:"circle"`
	Region          *string   `json:"region" jsonschema:"Null when published as NA."`
	Division        string    `json:"division"`
	District        *string   `json:"district" jsonschema:"LGD name; null when unknown."`
	State           *string   `json:"state" jsonschema:"LGD name; null when unknown."`
	DistrictID      *int      `json:"district_id" jsonschema:"LGD district code; null when unknown."`
	StateID         *int      `json:"state_id" jsonschema:"LGD state code; null when unknown."`
	Location        *location `json:"location" jsonschema:"Null when unknown or unusable."`
	LocationQuality string    `json:"location_quality" jsonschema:"exact, corrected, approximate or missing."`
	Digipin         *string   `json:"digipin" jsonschema:"DIGIPIN of the location; null when unknown."`
	ReviewsCount    int       `json:"reviews_count"`
	LikesCount      int       `json:"likes_count"`
	Rating          *float64  `json:"rating" jsonschema:"Average review rating, 1 to 5; null without reviews."`
}

// location is a point in decimal degrees.
type location struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// nearbyOffice is an office with its distance from the point asked about.
type nearbyOffice struct {
	office
	DistanceKm float64 `json:"distance_km"`
}

func officeOf(o postal.PostOffice) office {
	d := office{
		ID: o.ID, Pincode: string(o.Pincode), PostOffice: o.Name, BranchType: postal.BranchTypeName(o.OfficeType),
		DeliveryStatus: o.Delivery, Circle: o.Circle, Region: optString(o.Region), Division: o.Division,
		District: optString(o.District), State: optString(o.State), DistrictID: optInt(o.DistrictID), StateID: optInt(o.StateID),
		LocationQuality: string(o.Quality), ReviewsCount: o.Feedback.Reviews, LikesCount: o.Feedback.Likes,
	}
	if r, ok := o.Feedback.Rating(); ok {
		r = math.Round(r*100) / 100
		d.Rating = &r
	}
	if o.Location != nil {
		d.Location = &location{Latitude: o.Location.Latitude, Longitude: o.Location.Longitude}
		if c, err := digipin.EncodeCode(o.Location.Latitude, o.Location.Longitude); err == nil {
			d.Digipin = optString(c.String())
		}
	}
	return d
}

func officesOf(offices []postal.PostOffice) []office {
	out := make([]office, len(offices))
	for i, o := range offices {
		out[i] = officeOf(o)
	}
	return out
}

func nearbyOf(n postal.Nearby) nearbyOffice {
	return nearbyOffice{office: officeOf(n.Office), DistanceKm: math.Round(n.DistanceKm*1000) / 1000}
}

// pageMeta says where a page lies in a list.
type pageMeta struct {
	Total       int `json:"total"`
	PerPage     int `json:"per_page"`
	CurrentPage int `json:"current_page"`
	LastPage    int `json:"last_page"`
}

func metaOf(page paging.Page, total int) pageMeta {
	page = page.WithDefaults()
	return pageMeta{Total: total, PerPage: page.PerPage, CurrentPage: page.Number, LastPage: page.LastPage(total)}
}

// optString is s, or nil when empty (null in JSON).
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// optInt is n, or nil when 0 (unknown).
func optInt(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

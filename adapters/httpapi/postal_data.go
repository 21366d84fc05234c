package httpapi

import (
	"math"

	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
)

// LocationData is a point in decimal degrees.
type LocationData struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// OfficeData is a post office record.
type OfficeData struct {
	ID              int64         `json:"id" doc:"Stable for a dataset release (the row of the published file)."`
	Pincode         string        `json:"pincode"`
	PostOffice      string        `json:"post_office" doc:"Name as published."`
	BranchType      string        `json:"branch_type" enum:"Head Office,Sub Office,Branch Office"`
	DeliveryStatus  string        `json:"delivery_status" enum:"Delivery,Non Delivery"`
	Circle          string        `json:"circle"`
	Region          *string       `json:"region" doc:"Null when published as NA."`
	Division        string        `json:"division"`
	District        *string       `json:"district" doc:"LGD name; null when unknown."`
	State           *string       `json:"state" doc:"LGD name; null when unknown."`
	DistrictID      *int          `json:"district_id" doc:"LGD district code; null when unknown."`
	StateID         *int          `json:"state_id" doc:"LGD state code; null when unknown."`
	Location        *LocationData `json:"location" doc:"Null when unknown or unusable."`
	LocationQuality string        `json:"location_quality" enum:"exact,corrected,approximate,missing" doc:"exact: as published; corrected: swapped or re-parsed; approximate: a placeholder shared by 10+ offices or 50+ km from its PIN's other offices; missing: no usable point."`
	Digipin         *string       `json:"digipin" doc:"DIGIPIN of the location; null when unknown."`
	FeedbackData
}

// FeedbackData are the live review and like counts of an office record.
type FeedbackData struct {
	ReviewsCount int      `json:"reviews_count" doc:"Reviews of the office by users (PUT /post-offices/{id}/review), live."`
	LikesCount   int      `json:"likes_count" doc:"Users who like the office (PUT /post-offices/{id}/like), live."`
	Rating       *float64 `json:"rating" doc:"Average rating of the reviews (1 to 5, rounded to 2 decimals); null when there is no review."`
}

func feedbackData(f postal.Feedback) FeedbackData {
	d := FeedbackData{ReviewsCount: f.Reviews, LikesCount: f.Likes}
	if r, ok := f.Rating(); ok {
		r = math.Round(r*100) / 100
		d.Rating = &r
	}
	return d
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// optStringAt is optString for a string that outlives the answer: it
// points to it instead of copying it.
func optStringAt(s *string) *string {
	if *s == "" {
		return nil
	}
	return s
}

func optInt(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

func officeData(o postal.PostOffice) OfficeData {
	d := OfficeData{
		ID: o.ID, Pincode: string(o.Pincode), PostOffice: o.Name, BranchType: postal.BranchTypeName(o.OfficeType),
		DeliveryStatus: o.Delivery, Circle: o.Circle, Region: optString(o.Region), Division: o.Division,
		District: optString(o.District), State: optString(o.State), DistrictID: optInt(o.DistrictID), StateID: optInt(o.StateID),
		LocationQuality: string(o.Quality), FeedbackData: feedbackData(o.Feedback),
	}
	if o.Location != nil {
		d.Location = &LocationData{Latitude: o.Location.Latitude, Longitude: o.Location.Longitude}
		if c, err := digipin.EncodeCode(o.Location.Latitude, o.Location.Longitude); err == nil {
			s := c.String()
			d.Digipin = &s
		}
	}
	return d
}

func officesData(offices []postal.PostOffice) []OfficeData {
	out := make([]OfficeData, len(offices))
	for i, o := range offices {
		out[i] = officeData(o)
	}
	return out
}

// VillageData is a village and the PIN serving it.
type VillageData struct {
	VillageCode string `json:"village_code"`
	VillageName string `json:"village_name"`
	Subdistrict string `json:"subdistrict"`
	District    string `json:"district"`
	DistrictID  int    `json:"district_id"`
	State       string `json:"state"`
	StateID     int    `json:"state_id"`
	Pincode     string `json:"pincode"`
}

func villagesData(vs []postal.Village) []VillageData {
	out := make([]VillageData, len(vs))
	for i, v := range vs {
		out[i] = VillageData{VillageCode: v.Code, VillageName: v.Name, Subdistrict: v.Subdistrict, District: v.District,
			DistrictID: v.DistrictID, State: v.State, StateID: v.StateID, Pincode: string(v.Pincode)}
	}
	return out
}

// StateData is a state with its counts.
type StateData struct {
	ID               int    `json:"id" doc:"LGD state code."`
	Name             string `json:"name"`
	DistrictsCount   int    `json:"districts_count"`
	PincodesCount    int    `json:"pincodes_count"`
	PostOfficesCount int    `json:"post_offices_count"`
}

func stateData(s postal.StateSummary) StateData {
	return StateData{ID: s.ID, Name: s.Name, DistrictsCount: s.DistrictsCount, PincodesCount: s.PincodesCount, PostOfficesCount: s.PostOfficesCount}
}

// DistrictItem is a district in a state's list.
type DistrictItem struct {
	ID               int     `json:"id" doc:"LGD district code."`
	Name             string  `json:"name" doc:"LGD name."`
	AltName          *string `json:"alt_name" doc:"India Post's spelling when it differs, else null."`
	StateID          int     `json:"state_id"`
	PincodesCount    int     `json:"pincodes_count"`
	PostOfficesCount int     `json:"post_offices_count"`
}

func districtItem(d postal.DistrictSummary) DistrictItem {
	return DistrictItem{ID: d.ID, Name: d.Name, AltName: optString(d.AltName), StateID: d.StateID,
		PincodesCount: d.PincodesCount, PostOfficesCount: d.PostOfficesCount}
}

// StateRef names a state.
type StateRef struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// DistrictData is a district with its state.
type DistrictData struct {
	ID               int      `json:"id"`
	Name             string   `json:"name"`
	AltName          *string  `json:"alt_name"`
	State            StateRef `json:"state"`
	PincodesCount    int      `json:"pincodes_count"`
	PostOfficesCount int      `json:"post_offices_count"`
}

func districtData(d postal.DistrictSummary) DistrictData {
	return DistrictData{ID: d.ID, Name: d.Name, AltName: optString(d.AltName), State: StateRef{ID: d.StateID, Name: d.StateName},
		PincodesCount: d.PincodesCount, PostOfficesCount: d.PostOfficesCount}
}

func meta(page paging.Page, total int) Meta {
	page = page.WithDefaults()
	return Meta{Total: total, PerPage: page.PerPage, CurrentPage: page.Number, LastPage: page.LastPage(total)}
}

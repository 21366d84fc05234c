package httpapi

import (
	"math"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
)

// officeData is a post office record.
type officeData struct {
	ID              int64              `json:"id" doc:"Stable for a dataset release (the row of the published file)."`
	Pincode         string             `json:"pincode"`
	PostOffice      string             `json:"post_office" doc:"Name as published."`
	BranchType      string             `json:"branch_type" enum:"Head Office,Sub Office,Branch Office"`
	DeliveryStatus  string             `json:"delivery_status" enum:"Delivery,Non Delivery"`
	Circle          string             `json:"circle"`
	Region          *string            `json:"region" doc:"Null when published as NA."`
	Division        string             `json:"division"`
	District        *string            `json:"district" doc:"LGD name; null when unknown."`
	State           *string            `json:"state" doc:"LGD name; null when unknown."`
	DistrictID      *int               `json:"district_id" doc:"LGD district code; null when unknown."`
	StateID         *int               `json:"state_id" doc:"LGD state code; null when unknown."`
	Location        *wire.LocationData `json:"location" doc:"Null when unknown or unusable."`
	LocationQuality string             `json:"location_quality" enum:"exact,corrected,approximate,missing" doc:"exact: as published; corrected: swapped or re-parsed; approximate: a placeholder shared by 10+ offices or 50+ km from its PIN's other offices; missing: no usable point."`
	Digipin         *string            `json:"digipin" doc:"DIGIPIN of the location; null when unknown."`
	wire.FeedbackData
}

func feedbackData(f postal.Feedback) wire.FeedbackData {
	d := wire.FeedbackData{ReviewsCount: f.Reviews, LikesCount: f.Likes}
	if r, ok := f.Rating(); ok {
		d.Rating = roundedRating(r)
	}
	return d
}

// roundedRating is r to two decimals, in a variable of its own: declared
// in feedbackData's if, the variable would be allocated for every office,
// rated or not.
func roundedRating(r float64) *float64 {
	r = roundRating(r)
	return &r
}

// roundRating rounds an average rating to two decimals, as every answer
// gives it.
func roundRating(r float64) float64 { return math.Round(r*100) / 100 }

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

func officeDataOf(o postal.PostOffice) officeData {
	d := officeData{
		ID: o.ID, Pincode: string(o.Pincode), PostOffice: o.Name, BranchType: postal.BranchTypeName(o.OfficeType),
		DeliveryStatus: o.Delivery, Circle: o.Circle, Region: optString(o.Region), Division: o.Division,
		District: optString(o.District), State: optString(o.State), DistrictID: optInt(o.DistrictID), StateID: optInt(o.StateID),
		LocationQuality: string(o.Quality), FeedbackData: feedbackData(o.Feedback),
	}
	if o.Location != nil {
		d.Location = &wire.LocationData{Latitude: o.Location.Latitude, Longitude: o.Location.Longitude}
		if c, err := digipin.EncodeCode(o.Location.Latitude, o.Location.Longitude); err == nil {
			s := c.String()
			d.Digipin = &s
		}
	}
	return d
}

func officesData(offices []postal.PostOffice) []officeData {
	out := make([]officeData, len(offices))
	for i, o := range offices {
		out[i] = officeDataOf(o)
	}
	return out
}

// villageData is a village and the PIN serving it.
type villageData struct {
	VillageCode string `json:"village_code"`
	VillageName string `json:"village_name"`
	Subdistrict string `json:"subdistrict"`
	District    string `json:"district"`
	DistrictID  int    `json:"district_id"`
	State       string `json:"state"`
	StateID     int    `json:"state_id"`
	Pincode     string `json:"pincode"`
}

func villagesDataOf(vs []postal.Village) []villageData {
	out := make([]villageData, len(vs))
	for i, v := range vs {
		out[i] = villageData{VillageCode: v.Code, VillageName: v.Name, Subdistrict: v.Subdistrict, District: v.District,
			DistrictID: v.DistrictID, State: v.State, StateID: v.StateID, Pincode: string(v.Pincode)}
	}
	return out
}

// stateData is a state with its counts.
type stateData struct {
	ID               int    `json:"id" doc:"LGD state code."`
	Name             string `json:"name"`
	DistrictsCount   int    `json:"districts_count"`
	PincodesCount    int    `json:"pincodes_count"`
	PostOfficesCount int    `json:"post_offices_count"`
}

func stateDataOf(s postal.StateSummary) stateData {
	return stateData{ID: s.ID, Name: s.Name, DistrictsCount: s.DistrictsCount, PincodesCount: s.PincodesCount, PostOfficesCount: s.PostOfficesCount}
}

// districtItem is a district in a state's list.
type districtItem struct {
	ID               int     `json:"id" doc:"LGD district code."`
	Name             string  `json:"name" doc:"LGD name."`
	AltName          *string `json:"alt_name" doc:"India Post's spelling when it differs, else null."`
	StateID          int     `json:"state_id"`
	PincodesCount    int     `json:"pincodes_count"`
	PostOfficesCount int     `json:"post_offices_count"`
}

func districtItemOf(d postal.DistrictSummary) districtItem {
	return districtItem{ID: d.ID, Name: d.Name, AltName: optString(d.AltName), StateID: d.StateID,
		PincodesCount: d.PincodesCount, PostOfficesCount: d.PostOfficesCount}
}

// stateRef names a state.
type stateRef struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// districtData is a district with its state.
type districtData struct {
	ID               int      `json:"id"`
	Name             string   `json:"name"`
	AltName          *string  `json:"alt_name"`
	State            stateRef `json:"state"`
	PincodesCount    int      `json:"pincodes_count"`
	PostOfficesCount int      `json:"post_offices_count"`
}

func districtDataOf(d postal.DistrictSummary) districtData {
	return districtData{ID: d.ID, Name: d.Name, AltName: optString(d.AltName), State: stateRef{ID: d.StateID, Name: d.StateName},
		PincodesCount: d.PincodesCount, PostOfficesCount: d.PostOfficesCount}
}

func metaOf(page paging.Page, total int) wire.Meta {
	page = page.WithDefaults()
	return wire.Meta{Total: total, PerPage: page.PerPage, CurrentPage: page.Number, LastPage: page.LastPage(total)}
}

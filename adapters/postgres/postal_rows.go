package postgres

import (
	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/postal"
)

// officeRow is a post_offices row; location is derived in the database and
// never read back (distances come from latitude and longitude).
type officeRow struct {
	bun.BaseModel `bun:"table:post_offices,alias:o"`

	ID         int64    `bun:"id,pk"`
	Pincode    string   `bun:"pincode"`
	Name       string   `bun:"name"`
	OfficeKey  string   `bun:"office_key"`
	OfficeType string   `bun:"office_type"`
	Delivery   string   `bun:"delivery"`
	Circle     string   `bun:"circle"`
	Region     string   `bun:"region"`
	Division   string   `bun:"division"`
	District   string   `bun:"district"`
	State      string   `bun:"state"`
	DistrictID int      `bun:"district_id"`
	StateID    int      `bun:"state_id"`
	Latitude   *float64 `bun:"latitude"`
	Longitude  *float64 `bun:"longitude"`
	Quality    string   `bun:"quality"`
}

// officeColumns are the columns officeRow scans, for explicit selects.
var officeColumns = []string{"id", "pincode", "name", "office_key", "office_type", "delivery", "circle", "region",
	"division", "district", "state", "district_id", "state_id", "latitude", "longitude", "quality"}

func (r *officeRow) toDomain() postal.PostOffice {
	o := postal.PostOffice{
		ID: r.ID, Pincode: postal.Pincode(r.Pincode), Name: r.Name, OfficeType: r.OfficeType, Delivery: r.Delivery,
		Circle: r.Circle, Region: r.Region, Division: r.Division, District: r.District, State: r.State,
		DistrictID: r.DistrictID, StateID: r.StateID, Quality: postal.LocationQuality(r.Quality),
	}
	if r.Latitude != nil && r.Longitude != nil {
		o.Location = &postal.Location{Latitude: *r.Latitude, Longitude: *r.Longitude}
	}
	return o
}

func officesToDomain(rows []officeRow) []postal.PostOffice {
	out := make([]postal.PostOffice, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out
}

// stateRow is a postal_states row with its counts.
type stateRow struct {
	bun.BaseModel `bun:"table:postal_states,alias:s"`

	ID               int    `bun:"id,pk"`
	Name             string `bun:"name"`
	DistrictsCount   int    `bun:"districts_count"`
	PincodesCount    int    `bun:"pincodes_count"`
	PostOfficesCount int    `bun:"post_offices_count"`
}

func (r stateRow) toDomain() postal.StateSummary {
	return postal.StateSummary{State: postal.State{ID: r.ID, Name: r.Name}, DistrictsCount: r.DistrictsCount,
		PincodesCount: r.PincodesCount, PostOfficesCount: r.PostOfficesCount}
}

// districtRow is a postal_districts row with its state's name.
type districtRow struct {
	bun.BaseModel `bun:"table:postal_districts,alias:d"`

	ID               int    `bun:"id,pk"`
	Name             string `bun:"name"`
	AltName          string `bun:"alt_name"`
	StateID          int    `bun:"state_id"`
	StateName        string `bun:"state_name,scanonly"`
	PincodesCount    int    `bun:"pincodes_count"`
	PostOfficesCount int    `bun:"post_offices_count"`
}

func (r districtRow) toDomain() postal.DistrictSummary {
	return postal.DistrictSummary{
		District:  postal.District{ID: r.ID, Name: r.Name, AltName: r.AltName, StateID: r.StateID},
		StateName: r.StateName, PincodesCount: r.PincodesCount, PostOfficesCount: r.PostOfficesCount,
	}
}

// villageRow is a postal_villages row; ord is its position in the dataset.
type villageRow struct {
	bun.BaseModel `bun:"table:postal_villages,alias:v"`

	Ord         int    `bun:"ord,pk"`
	Code        string `bun:"code"`
	Name        string `bun:"name"`
	Subdistrict string `bun:"subdistrict"`
	District    string `bun:"district"`
	DistrictID  int    `bun:"district_id"`
	State       string `bun:"state"`
	StateID     int    `bun:"state_id"`
	Pincode     string `bun:"pincode"`
}

// villageColumns are the columns villageRow scans.
var villageColumns = []string{"ord", "code", "name", "subdistrict", "district", "district_id", "state", "state_id", "pincode"}

func villagesToDomain(rows []villageRow) []postal.Village {
	out := make([]postal.Village, len(rows))
	for i, r := range rows {
		out[i] = postal.Village{Code: r.Code, Name: r.Name, Subdistrict: r.Subdistrict, District: r.District,
			DistrictID: r.DistrictID, State: r.State, StateID: r.StateID, Pincode: postal.Pincode(r.Pincode)}
	}
	return out
}

// datasetRow is the single postal_dataset row: what was imported.
type datasetRow struct {
	bun.BaseModel `bun:"table:postal_dataset"`

	Version       string                `bun:"version"`
	HasLGD        bool                  `bun:"has_lgd"`
	Offices       int                   `bun:"offices"`
	Pincodes      int                   `bun:"pincodes"`
	States        int                   `bun:"states"`
	Districts     int                   `bun:"districts"`
	Villages      int                   `bun:"villages"`
	VillageStates []string              `bun:"village_states,type:jsonb"`
	Report        postal.CleaningReport `bun:"report,type:jsonb"`
	Source        postal.Source         `bun:"source,type:jsonb"`
}

func (r datasetRow) toDomain() postal.Info {
	return postal.Info{Loaded: true, HasLGD: r.HasLGD, Offices: r.Offices, Pincodes: r.Pincodes, States: r.States,
		Districts: r.Districts, Villages: r.Villages, VillageStates: r.VillageStates, Report: r.Report, Version: r.Version,
		Source: r.Source}
}

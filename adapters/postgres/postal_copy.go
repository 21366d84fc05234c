package postgres

import (
	"slices"
	"strings"

	"github.com/pinsight/pinsight/domain/postal"
)

// The COPY rows of each postal table, built from a dataset. Keys and words
// come from the domain's normalisers, so that the database matches exactly
// what the memory store matches.

var officeCopyColumns = []string{"id", "pincode", "name", "office_key", "office_type", "delivery", "circle", "region",
	"division", "district", "state", "district_id", "state_id", "latitude", "longitude", "quality"}

var villageCopyColumns = []string{"ord", "code", "name", "name_key", "subdistrict", "district", "district_id",
	"state", "state_id", "pincode"}

func stateRows(ds *postal.Dataset) [][]any {
	rows := make([][]any, len(ds.States))
	for i, s := range ds.States {
		rows[i] = []any{int32(s.ID), s.Name, postal.NameKey(s.Name)}
	}
	return rows
}

func districtRows(ds *postal.Dataset) [][]any {
	rows := make([][]any, len(ds.Districts))
	for i, d := range ds.Districts {
		rows[i] = []any{int32(d.ID), d.Name, d.AltName, postal.NameKey(d.Name), postal.NameKey(d.AltName), int32(d.StateID)}
	}
	return rows
}

func officeRows(ds *postal.Dataset) [][]any {
	rows := make([][]any, len(ds.Offices))
	for i := range ds.Offices {
		o := &ds.Offices[i]
		var lat, lon any
		if o.Location != nil {
			lat, lon = o.Location.Latitude, o.Location.Longitude
		}
		rows[i] = []any{o.ID, string(o.Pincode), o.Name, postal.OfficeKey(o.Name), o.OfficeType, o.Delivery,
			o.Circle, o.Region, o.Division, o.District, o.State, int32(o.DistrictID), int32(o.StateID), lat, lon,
			string(o.Quality)}
	}
	return rows
}

func officeWordRows(ds *postal.Dataset) [][]any {
	rows := make([][]any, 0, len(ds.Offices)*2)
	for i := range ds.Offices {
		for _, w := range distinctWords(postal.OfficeKey(ds.Offices[i].Name)) {
			rows = append(rows, []any{w, ds.Offices[i].ID})
		}
	}
	return rows
}

func villageRows(ds *postal.Dataset) [][]any {
	rows := make([][]any, len(ds.Villages))
	for i, v := range ds.Villages {
		rows[i] = []any{int32(i), v.Code, v.Name, postal.NameKey(v.Name), v.Subdistrict, v.District,
			int32(v.DistrictID), v.State, int32(v.StateID), string(v.Pincode)}
	}
	return rows
}

func villageWordRows(ds *postal.Dataset) [][]any {
	rows := make([][]any, 0, len(ds.Villages)*2)
	for i, v := range ds.Villages {
		for _, w := range distinctWords(postal.NameKey(v.Name)) {
			rows = append(rows, []any{w, int32(i)})
		}
	}
	return rows
}

// distinctWords returns the words of a key, each once.
func distinctWords(key string) []string {
	var out []string
	for _, w := range strings.Fields(key) {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

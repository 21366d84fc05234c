package ports

import (
	"context"

	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// PostalStore serves the India Post directory. Every method returns
// postal.ErrNoData when no dataset is loaded.
type PostalStore interface {
	// Info describes the loaded dataset.
	Info(ctx context.Context) (postal.Info, error)
	// OfficesByPincode returns the PIN's offices by name (empty when none).
	OfficesByPincode(ctx context.Context, pin postal.Pincode) ([]postal.PostOffice, error)
	// TerminatedPincode returns the last release that had pin when pin
	// existed in an earlier release and has no office in the loaded one
	// (found is false otherwise, and for a store that keeps no history).
	TerminatedPincode(ctx context.Context, pin postal.Pincode) (last postal.Release, found bool, err error)
	// Office returns the office whose id is id in the loaded release, or
	// a postal.ErrNotFound.
	Office(ctx context.Context, id int64) (postal.PostOffice, error)
	// States lists the states whose name matches q (all when empty) as
	// postal.NameMatches does with q's postal.NameKey, by name.
	States(ctx context.Context, q string) ([]postal.StateSummary, error)
	// State resolves an id, exact name or unique name prefix; returns a
	// *postal.AmbiguousError or a postal.ErrNotFound.
	State(ctx context.Context, ref string) (postal.StateSummary, error)
	// Districts lists a state's districts whose name (or India Post
	// spelling) matches q as postal.DistrictMatches does with q's
	// postal.NameKey, by name.
	Districts(ctx context.Context, stateID int, q string) ([]postal.DistrictSummary, error)
	// District resolves like State.
	District(ctx context.Context, ref string) (postal.DistrictSummary, error)
	// DistrictOffices pages a district's offices by pincode, then name; it
	// returns the page and the total.
	DistrictOffices(ctx context.Context, districtID int, page paging.Page) ([]postal.PostOffice, int, error)
	// Villages pages the villages of a PIN by name.
	Villages(ctx context.Context, pin postal.Pincode, page paging.Page) ([]postal.Village, int, error)
	// SearchOffices pages offices matching q by postal.OfficeRank, then
	// pincode, name and id.
	SearchOffices(ctx context.Context, q postal.SearchQuery, page paging.Page) ([]postal.PostOffice, int, error)
	// SearchVillages pages villages whose name matches q (exact, prefix,
	// word), optionally within a state and / or district (0: any).
	SearchVillages(ctx context.Context, q postal.SearchQuery, stateID, districtID int, page paging.Page) ([]postal.Village, int, error)
	// NearestOffices returns the located offices q asks for (none when
	// q.Limit <= 0), nearest first (ties by id), each with its Haversine
	// distance (geo.DistanceKm); with q.RadiusKm > 0 only offices at most
	// that far. The offices are references (postal.NearbyRef): a store
	// holding its records in memory returns them uncopied, and callers
	// never write them.
	NearestOffices(ctx context.Context, q geo.NearQuery) ([]postal.NearbyRef, error)
	// CellOffices pages the offices whose location lies in a DIGIPIN cell
	// (cell.Contains: the location's code starts with the cell's symbols;
	// offices without a location never do) as DistrictOffices orders
	// them: by pincode, then name, then id. It returns the page and the
	// total.
	CellOffices(ctx context.Context, cell digipin.Cell, page paging.Page) ([]postal.PostOffice, int, error)
}

// PostalAutocomplete suggests offices as a user types. The in-memory
// store implements it (every storage serves the directory from it); over
// a store without it the directory's Autocomplete answers from the
// store's search, without typing errors forgiven.
type PostalAutocomplete interface {
	// Autocomplete returns up to q.Limit suggestions, best first (see
	// postal.ParseAutocomplete for the query).
	Autocomplete(ctx context.Context, q postal.AutocompleteQuery) ([]postal.Suggestion, error)
}

// Package directory answers the India Post directory queries over a
// ports.PostalStore: lookups by pincode, office details, villages, states
// and districts, search, batches, offices near a point or in a DIGIPIN cell,
// distances and the dataset's description. postaldir opens one over the
// embedded snapshot in one call.
package directory

import (
	"context"
	"strconv"
	"strings"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports"
)

// Directory answers the postal directory queries, validating input and
// applying the contract's selection rules over a PostalStore.
type Directory struct {
	store      ports.PostalStore
	counts     *countsReplica // nil: no reviews, every office's Feedback is zero
	hooks      countsHooks
	identities identityCache
}

// New returns the directory over store, without reviews: every office's
// Feedback is zero and every counts version 0.
func New(store ports.PostalStore) *Directory { return &Directory{store: store} }

// NewWithReviews returns the directory over store whose office records
// carry the review and like counts of counts. It holds every count in
// memory (read whole at LoadCounts or the first use), so its postal answers
// never read counts; every write to counts must be followed by a
// RefreshCounts (on the writing instance) or a CountsChanged (on every
// other one).
func NewWithReviews(store ports.PostalStore, counts ports.ReviewCounts) *Directory {
	dir := &Directory{store: store}
	dir.counts = newCountsReplica(counts, dir.notifyCounts)
	return dir
}

// Info describes the loaded dataset (postal.ErrNoData when none).
func (dir *Directory) Info(ctx context.Context) (postal.Info, error) { return dir.store.Info(ctx) }

// Lookup returns the offices of a pincode: a *postal.ValidationError for
// bad syntax, a *postal.TerminatedError when an earlier release had the PIN
// and the loaded one does not, else not found when the PIN has no office.
func (dir *Directory) Lookup(ctx context.Context, pincode string) (postal.Pincode, []postal.PostOffice, error) {
	pin, err := postal.ParsePincode(pincode)
	if err != nil {
		return "", nil, err
	}
	offices, err := dir.store.OfficesByPincode(ctx, pin)
	if err != nil {
		return pin, nil, err
	}
	if len(offices) == 0 {
		last, terminated, err := dir.store.TerminatedPincode(ctx, pin)
		switch {
		case err != nil:
			return pin, nil, err
		case terminated:
			return pin, nil, &postal.TerminatedError{Pincode: pin, LastRelease: last}
		}
		return pin, nil, &postal.NotFoundError{What: "pincode " + string(pin)}
	}
	if err := dir.attach(ctx, offices, offices); err != nil {
		return pin, nil, err
	}
	return pin, offices, nil
}

// Details picks one office of a pincode: the one named officeName (ignoring
// case, punctuation and the office-type suffix), or without a name the head
// office, else the sub office, else the first branch office by name.
func (dir *Directory) Details(ctx context.Context, pincode, officeName string) (postal.PostOffice, error) {
	pin, offices, err := dir.Lookup(ctx, pincode)
	if err != nil {
		return postal.PostOffice{}, err
	}
	candidates := offices
	if strings.TrimSpace(officeName) != "" {
		key := postal.OfficeKey(officeName)
		candidates = nil
		for _, o := range offices {
			if postal.OfficeKey(o.Name) == key {
				candidates = append(candidates, o)
			}
		}
		if len(candidates) == 0 {
			return postal.PostOffice{}, &postal.NotFoundError{What: "post office " + `"` + officeName + `"` + " in pincode " + string(pin)}
		}
	}
	return Principal(candidates), nil
}

// typeOrder ranks head offices first, then sub offices, then branches.
func typeOrder(t string) int {
	switch t {
	case postal.TypeHead:
		return 0
	case postal.TypeSub:
		return 1
	case postal.TypeBranch:
		return 2
	}
	return 3
}

// Villages pages the villages of a pincode (an empty list outside the
// loaded coverage). See checkPage for the page.
func (dir *Directory) Villages(ctx context.Context, pincode string, page paging.Page) (postal.Pincode, paging.List[postal.Village], error) {
	pin, err := postal.ParsePincode(pincode)
	if err != nil {
		return "", paging.List[postal.Village]{}, err
	}
	if page, err = checkPage(page); err != nil {
		return pin, paging.List[postal.Village]{}, err
	}
	v, total, err := dir.store.Villages(ctx, pin, page)
	return pin, paging.List[postal.Village]{Items: v, Total: total, Page: page}, err
}

// States lists the states whose name matches q as search does: the
// start of the name or of any of its words (all when q is empty).
func (dir *Directory) States(ctx context.Context, q string) ([]postal.StateSummary, error) {
	return dir.store.States(ctx, q)
}

// State resolves a state reference.
func (dir *Directory) State(ctx context.Context, ref string) (postal.StateSummary, error) {
	return dir.store.State(ctx, ref)
}

// Districts resolves a state and lists its districts whose name (or India
// Post spelling) matches q as States does.
func (dir *Directory) Districts(ctx context.Context, stateRef, q string) (postal.StateSummary, []postal.DistrictSummary, error) {
	s, err := dir.store.State(ctx, stateRef)
	if err != nil {
		return s, nil, err
	}
	d, err := dir.store.Districts(ctx, s.ID, q)
	return s, d, err
}

// District resolves a district reference.
func (dir *Directory) District(ctx context.Context, ref string) (postal.DistrictSummary, error) {
	return dir.store.District(ctx, ref)
}

// DistrictOffices resolves a district and pages its offices. See checkPage
// for the page.
func (dir *Directory) DistrictOffices(ctx context.Context, ref string, page paging.Page) (postal.DistrictSummary, paging.List[postal.PostOffice], error) {
	page, err := checkPage(page)
	if err != nil {
		return postal.DistrictSummary{}, paging.List[postal.PostOffice]{}, err
	}
	d, err := dir.store.District(ctx, ref)
	if err != nil {
		return d, paging.List[postal.PostOffice]{}, err
	}
	offices, total, err := dir.store.DistrictOffices(ctx, d.ID, page)
	if err == nil {
		err = dir.WithFeedback(ctx, offices)
	}
	return d, paging.List[postal.PostOffice]{Items: offices, Total: total, Page: page}, err
}

// SearchOffices pages the offices matching q (see postal.ParseQuery). See
// checkPage for the page.
func (dir *Directory) SearchOffices(ctx context.Context, q string, page paging.Page) (paging.List[postal.PostOffice], error) {
	sq, err := postal.ParseQuery(q)
	if err != nil {
		return paging.List[postal.PostOffice]{}, err
	}
	if page, err = checkPage(page); err != nil {
		return paging.List[postal.PostOffice]{}, err
	}
	offices, total, err := dir.store.SearchOffices(ctx, sq, page)
	if err == nil {
		err = dir.WithFeedback(ctx, offices)
	}
	return paging.List[postal.PostOffice]{Items: offices, Total: total, Page: page}, err
}

// SearchVillages pages the villages matching q, optionally within a state
// and / or district given by reference ("" for any). See checkPage for the
// page.
func (dir *Directory) SearchVillages(ctx context.Context, q, stateRef, districtRef string, page paging.Page) (paging.List[postal.Village], error) {
	var none paging.List[postal.Village]
	sq, err := postal.ParseQuery(q)
	if err != nil {
		return none, err
	}
	if page, err = checkPage(page); err != nil {
		return none, err
	}
	var stateID, districtID int
	if strings.TrimSpace(stateRef) != "" {
		s, err := dir.store.State(ctx, stateRef)
		if err != nil {
			return none, err
		}
		stateID = s.ID
	}
	if strings.TrimSpace(districtRef) != "" {
		d, err := dir.store.District(ctx, districtRef)
		if err != nil {
			return none, err
		}
		districtID = d.ID
	}
	villages, total, err := dir.store.SearchVillages(ctx, sq, stateID, districtID, page)
	return paging.List[postal.Village]{Items: villages, Total: total, Page: page}, err
}

// checkPage returns page with its zero fields set to the defaults (the zero
// Page is the first page of paging.DefaultPerPage items), or a
// *postal.ValidationError for a negative field. Any page size is accepted:
// limits are the transport's.
func checkPage(page paging.Page) (paging.Page, error) {
	fields := map[string][]string{}
	if page.Number < 0 {
		fields["page"] = []string{"must be 1 or more (0: the first page)"}
	}
	if page.PerPage < 0 {
		fields["per_page"] = []string{"must be 1 or more (0: " + strconv.Itoa(paging.DefaultPerPage) + ")"}
	}
	if len(fields) > 0 {
		return paging.Page{}, &postal.ValidationError{Fields: fields}
	}
	return page.WithDefaults(), nil
}

// BatchStatus is the outcome of one pincode of a batch.
type BatchStatus string

// Batch outcomes.
const (
	BatchFound    BatchStatus = "found"
	BatchNotFound BatchStatus = "not_found"
	BatchInvalid  BatchStatus = "invalid"
)

// BatchItem is one pincode's outcome.
type BatchItem struct {
	Input   string
	Pincode postal.Pincode
	Status  BatchStatus
	Offices []postal.PostOffice
	// Terminated is set on a pincode not found that an earlier release
	// had: LastRelease is the last that had it.
	Terminated  bool
	LastRelease postal.Release
}

// Batch looks up several pincodes, each found, not found (terminated when
// an earlier release had it) or invalid, in request order; transports
// bound their number.
func (dir *Directory) Batch(ctx context.Context, pincodes []string) ([]BatchItem, error) {
	out := make([]BatchItem, len(pincodes))
	for i, in := range pincodes {
		out[i].Input = in
		pin, err := postal.ParsePincode(in)
		if err != nil {
			out[i].Status = BatchInvalid
			continue
		}
		offices, err := dir.store.OfficesByPincode(ctx, pin)
		if err != nil {
			return nil, err
		}
		if err := dir.attach(ctx, offices, offices); err != nil {
			return nil, err
		}
		out[i].Pincode, out[i].Offices = pin, offices
		out[i].Status = BatchFound
		if len(offices) == 0 {
			out[i].Status = BatchNotFound
			if out[i].LastRelease, out[i].Terminated, err = dir.store.TerminatedPincode(ctx, pin); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

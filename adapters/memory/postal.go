package memory

import (
	"context"
	"strconv"
	"sync/atomic"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports"
)

// PostalStore serves a postal dataset from indexes built once at load.
// Replace swaps in a new dataset atomically: a request sees the old one or
// the new one, never a mix.
type PostalStore struct {
	cur atomic.Pointer[postalIndex]
	// terminated is the served dataset's Terminated set; SetTerminated
	// replaces it without rebuilding the indexes.
	terminated atomic.Pointer[map[postal.Pincode]postal.Release]
}

// NewPostalStore returns a store serving ds (nil: empty until Replace).
func NewPostalStore(ds *postal.Dataset) *PostalStore {
	s := &PostalStore{}
	s.Replace(ds)
	return s
}

// Replace indexes ds and makes it the served dataset; nil clears the store
// (every method then returns postal.ErrNoData).
func (s *PostalStore) Replace(ds *postal.Dataset) {
	if ds == nil {
		s.cur.Store(nil)
		s.terminated.Store(nil)
		return
	}
	ix := buildIndex(ds)
	terminated := ds.Terminated
	s.terminated.Store(&terminated)
	s.cur.Store(ix)
}

// ReplaceAfter indexes ds (not nil) while record runs (record may set
// ds.Terminated, which indexing does not read), then makes ds the served
// dataset if record succeeded; if it failed, the served dataset stays and
// its error is returned.
func (s *PostalStore) ReplaceAfter(ds *postal.Dataset, record func() error) error {
	built := make(chan *postalIndex, 1)
	go func() { built <- buildIndex(ds) }()
	err := record()
	ix := <-built
	if err != nil {
		return err
	}
	terminated := ds.Terminated
	s.terminated.Store(&terminated)
	s.cur.Store(ix)
	return nil
}

// SetTerminated replaces the served dataset's terminated PINs (what
// TerminatedPincode answers from): a host that swaps a new dataset in
// first and records its release after gives the set then.
func (s *PostalStore) SetTerminated(terminated map[postal.Pincode]postal.Release) {
	s.terminated.Store(&terminated)
}

func (s *PostalStore) index() (*postalIndex, error) {
	ix := s.cur.Load()
	if ix == nil {
		return nil, postal.ErrNoData
	}
	return ix, nil
}

// Info implements ports.PostalStore.
func (s *PostalStore) Info(context.Context) (postal.Info, error) {
	ix, err := s.index()
	if err != nil {
		return postal.Info{}, err
	}
	return ix.info, nil
}

// OfficesByPincode implements ports.PostalStore.
func (s *PostalStore) OfficesByPincode(_ context.Context, pin postal.Pincode) ([]postal.PostOffice, error) {
	ix, err := s.index()
	if err != nil {
		return nil, err
	}
	return ix.offices(ix.byPin[pin]), nil
}

// TerminatedPincode implements ports.PostalStore, from the dataset's
// Terminated set (or SetTerminated's).
func (s *PostalStore) TerminatedPincode(_ context.Context, pin postal.Pincode) (postal.Release, bool, error) {
	if _, err := s.index(); err != nil {
		return postal.Release{}, false, err
	}
	var r postal.Release
	found := false
	if t := s.terminated.Load(); t != nil {
		r, found = (*t)[pin]
	}
	return r, found, nil
}

// Office implements ports.PostalStore.
func (s *PostalStore) Office(_ context.Context, id int64) (postal.PostOffice, error) {
	ix, err := s.index()
	if err != nil {
		return postal.PostOffice{}, err
	}
	i, ok := ix.byID.find(id)
	if !ok {
		return postal.PostOffice{}, &postal.NotFoundError{What: "post office " + strconv.FormatInt(id, 10)}
	}
	return ix.ds.Offices[i], nil
}

// States implements ports.PostalStore.
func (s *PostalStore) States(_ context.Context, q string) ([]postal.StateSummary, error) {
	ix, err := s.index()
	if err != nil {
		return nil, err
	}
	key := postal.NameKey(q)
	var out []postal.StateSummary
	for _, st := range ix.statesByName {
		if postal.NameMatches(postal.NameKey(st.Name), key) {
			out = append(out, st)
		}
	}
	return out, nil
}

// State implements ports.PostalStore.
func (s *PostalStore) State(_ context.Context, ref string) (postal.StateSummary, error) {
	ix, err := s.index()
	if err != nil {
		return postal.StateSummary{}, err
	}
	return postal.ResolveState(ref, ix.statesByName)
}

// Districts implements ports.PostalStore.
func (s *PostalStore) Districts(_ context.Context, stateID int, q string) ([]postal.DistrictSummary, error) {
	ix, err := s.index()
	if err != nil {
		return nil, err
	}
	key := postal.NameKey(q)
	var out []postal.DistrictSummary
	for _, d := range ix.districtsByName {
		if d.StateID == stateID && postal.DistrictMatches(d, key) {
			out = append(out, d)
		}
	}
	return out, nil
}

// District implements ports.PostalStore.
func (s *PostalStore) District(_ context.Context, ref string) (postal.DistrictSummary, error) {
	ix, err := s.index()
	if err != nil {
		return postal.DistrictSummary{}, err
	}
	return postal.ResolveDistrict(ref, ix.districtsByName)
}

// DistrictOffices implements ports.PostalStore.
func (s *PostalStore) DistrictOffices(_ context.Context, districtID int, page paging.Page) ([]postal.PostOffice, int, error) {
	ix, err := s.index()
	if err != nil {
		return nil, 0, err
	}
	all := ix.byDistrict[districtID]
	from, to := page.Bounds(len(all))
	return ix.offices(all[from:to]), len(all), nil
}

// Villages implements ports.PostalStore.
func (s *PostalStore) Villages(_ context.Context, pin postal.Pincode, page paging.Page) ([]postal.Village, int, error) {
	ix, err := s.index()
	if err != nil {
		return nil, 0, err
	}
	all := ix.villagesByPin[pin]
	from, to := page.Bounds(len(all))
	return ix.villages(all[from:to]), len(all), nil
}

// LocatedOffices returns every office with a known location, by id.
func (s *PostalStore) LocatedOffices(context.Context) ([]postal.PostOffice, error) {
	ix, err := s.index()
	if err != nil {
		return nil, err
	}
	out := make([]postal.PostOffice, 0, len(ix.ds.Offices))
	for _, o := range ix.ds.Offices {
		if o.Location != nil {
			out = append(out, o)
		}
	}
	return out, nil
}

// Interface guard.
var _ ports.PostalStore = (*PostalStore)(nil)

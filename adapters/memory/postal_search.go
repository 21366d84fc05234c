package memory

import (
	"context"
	"sort"
	"strings"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
)

// SearchOffices implements ports.PostalStore. Candidates come from the
// autocomplete index's vocabulary of office and district words (every
// match has a word starting with the query's first word) and the sorted
// pincodes; postal.OfficeRank decides and orders.
func (s *PostalStore) SearchOffices(_ context.Context, q postal.SearchQuery, page paging.Page) ([]postal.PostOffice, int, error) {
	ix, err := s.index()
	if err != nil {
		return nil, 0, err
	}
	type hit struct {
		postal.OfficeHit
		i int32
	}
	seen := map[int32]bool{}
	var hits []hit
	consider := func(i int32) {
		if seen[i] {
			return
		}
		seen[i] = true
		o := &ix.ds.Offices[i]
		if r, ok := postal.OfficeRank(o, ix.officeKeys[i], ix.districtKeys[o.DistrictID], q); ok {
			hits = append(hits, hit{postal.OfficeHit{Rank: r, Pincode: o.Pincode, Key: ix.officeKeys[i], ID: o.ID}, i})
		}
	}
	first, _, _ := strings.Cut(q.Key, " ")
	for _, p := range ix.complete.prefixPostings(first) {
		if p.ref >= 0 {
			consider(p.ref)
			continue
		}
		for _, i := range ix.complete.districts[-1-p.ref].offices {
			consider(i)
		}
	}
	if q.Digits != "" {
		from := sort.Search(len(ix.pins), func(i int) bool { return string(ix.pins[i]) >= q.Digits })
		for p := from; p < len(ix.pins) && strings.HasPrefix(string(ix.pins[p]), q.Digits); p++ {
			for _, i := range ix.byPin[ix.pins[p]] {
				consider(i)
			}
		}
	}
	sort.Slice(hits, func(a, b int) bool { return hits[a].Less(hits[b].OfficeHit) })
	from, to := page.Bounds(len(hits))
	out := make([]postal.PostOffice, 0, to-from)
	for _, h := range hits[from:to] {
		out = append(out, ix.ds.Offices[h.i])
	}
	return out, len(hits), nil
}

// SearchVillages implements ports.PostalStore.
func (s *PostalStore) SearchVillages(_ context.Context, q postal.SearchQuery, stateID, districtID int, page paging.Page) ([]postal.Village, int, error) {
	ix, err := s.index()
	if err != nil {
		return nil, 0, err
	}
	type hit struct {
		postal.VillageHit
		i int32
	}
	var hits []hit
	for i, v := range ix.ds.Villages {
		if (stateID != 0 && v.StateID != stateID) || (districtID != 0 && v.DistrictID != districtID) {
			continue
		}
		if r, ok := postal.MatchRank(ix.villageKeys[i], q.Key); ok {
			hits = append(hits, hit{postal.VillageHit{Rank: r, Key: ix.villageKeys[i], Code: v.Code, Pos: i}, int32(i)})
		}
	}
	sort.Slice(hits, func(a, b int) bool { return hits[a].Less(hits[b].VillageHit) })
	from, to := page.Bounds(len(hits))
	out := make([]postal.Village, 0, to-from)
	for _, h := range hits[from:to] {
		out = append(out, ix.ds.Villages[h.i])
	}
	return out, len(hits), nil
}

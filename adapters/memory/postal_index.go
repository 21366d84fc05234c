package memory

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pinsight/pinsight/domain/postal"
)

// postalIndex is an immutable dataset with its lookup structures.
type postalIndex struct {
	ds              *postal.Dataset
	info            postal.Info
	byPin           map[postal.Pincode][]int32 // offices by name
	byID            officeIDs                  // office index by id
	byDistrict      map[int][]int32            // offices by pincode, name
	statesByName    []postal.StateSummary
	districtsByName []postal.DistrictSummary
	villagesByPin   map[postal.Pincode][]int32 // villages by name
	officeKeys      []string                   // postal.OfficeKey per office
	districtKeys    map[int][]string           // postal.NameKey of the name and alt name per district id
	villageKeys     []string                   // postal.NameKey per village
	pins            []postal.Pincode           // distinct, sorted
	near            nearIndex                  // located offices, spatially (postal_nearby.go)
	// complete serves autocomplete (postal_autocomplete.go); its vocabulary
	// of office and district words also gives search its candidates.
	complete *autocompleteIndex
}

// buildIndex indexes ds. The independent parts (the spatial index, the
// fingerprint, the regions and villages, the autocomplete index once the
// offices are grouped) are built side by side.
func buildIndex(ds *postal.Dataset) *postalIndex {
	ix := &postalIndex{
		ds: ds, byPin: map[postal.Pincode][]int32{}, byDistrict: map[int][]int32{},
		villagesByPin: map[postal.Pincode][]int32{}, districtKeys: map[int][]string{},
		officeKeys: make([]string, len(ds.Offices)), byID: newOfficeIDs(ds.Offices),
	}
	var wg sync.WaitGroup
	wg.Go(func() { ix.near = newNearIndex(ds.Offices) })
	var version string
	wg.Go(func() { version = ds.Fingerprint() })
	wg.Go(func() {
		ix.buildRegions()
		ix.buildVillages()
	})
	keyPrefix := make([]uint64, len(ds.Offices)) // prefix8 of the office keys, to sort by them
	for i := range ds.Offices {
		o := &ds.Offices[i]
		ix.officeKeys[i] = postal.OfficeKey(o.Name)
		keyPrefix[i] = prefix8(ix.officeKeys[i])
		ix.byPin[o.Pincode] = append(ix.byPin[o.Pincode], int32(i))
		if o.DistrictID != 0 {
			ix.byDistrict[o.DistrictID] = append(ix.byDistrict[o.DistrictID], int32(i))
		}
	}
	ix.pins = make([]postal.Pincode, 0, len(ix.byPin))
	for pin, idx := range ix.byPin {
		ix.sortOffices(idx, false, keyPrefix)
		ix.pins = append(ix.pins, pin)
	}
	for _, idx := range ix.byDistrict {
		ix.sortOffices(idx, true, keyPrefix)
	}
	slices.Sort(ix.pins)
	ix.complete = newAutocompleteIndex(ds, ix.officeKeys, ix.byDistrict, ix.pins, ix.byPin)
	wg.Wait()
	ix.info = postal.Info{
		Loaded: true, HasLGD: ds.HasLGD, Offices: len(ds.Offices), Pincodes: len(ix.byPin),
		States: len(ds.States), Districts: len(ds.Districts), Villages: len(ds.Villages),
		VillageStates: ds.VillageStates, Report: ds.Report,
		Version: version, Source: ds.Source,
	}
	return ix
}

// sortOffices orders office indexes by (pincode when byPincode,) name, id;
// keyPrefix holds the prefix8 of each office's key.
func (ix *postalIndex) sortOffices(idx []int32, byPincode bool, keyPrefix []uint64) {
	offices := ix.ds.Offices
	slices.SortFunc(idx, func(a, b int32) int {
		oa, ob := &offices[a], &offices[b]
		if byPincode && oa.Pincode != ob.Pincode {
			return strings.Compare(string(oa.Pincode), string(ob.Pincode))
		}
		return cmp.Or(comparePrefixed(keyPrefix[a], keyPrefix[b], ix.officeKeys[a], ix.officeKeys[b]), cmp.Compare(oa.ID, ob.ID))
	})
}

// buildRegions computes the state and district summaries with their counts.
func (ix *postalIndex) buildRegions() {
	statePins, districtPins := map[int]map[postal.Pincode]bool{}, map[int]map[postal.Pincode]bool{}
	stateOffices, districtOffices, stateDistricts := map[int]int{}, map[int]int{}, map[int]int{}
	add := func(m map[int]map[postal.Pincode]bool, id int, pin postal.Pincode) {
		if m[id] == nil {
			m[id] = map[postal.Pincode]bool{}
		}
		m[id][pin] = true
	}
	for _, o := range ix.ds.Offices {
		if o.StateID != 0 {
			add(statePins, o.StateID, o.Pincode)
			stateOffices[o.StateID]++
		}
		if o.DistrictID != 0 {
			add(districtPins, o.DistrictID, o.Pincode)
			districtOffices[o.DistrictID]++
		}
	}
	stateNames := map[int]string{}
	for _, s := range ix.ds.States {
		stateNames[s.ID] = s.Name
	}
	for _, d := range ix.ds.Districts {
		stateDistricts[d.StateID]++
		ix.districtKeys[d.ID] = []string{postal.NameKey(d.Name)}
		if d.AltName != "" {
			ix.districtKeys[d.ID] = append(ix.districtKeys[d.ID], postal.NameKey(d.AltName))
		}
		ix.districtsByName = append(ix.districtsByName, postal.DistrictSummary{
			District: d, StateName: stateNames[d.StateID], PincodesCount: len(districtPins[d.ID]), PostOfficesCount: districtOffices[d.ID],
		})
	}
	for _, s := range ix.ds.States {
		ix.statesByName = append(ix.statesByName, postal.StateSummary{
			State: s, DistrictsCount: stateDistricts[s.ID], PincodesCount: len(statePins[s.ID]), PostOfficesCount: stateOffices[s.ID],
		})
	}
	sort.Slice(ix.statesByName, func(i, j int) bool { return ix.statesByName[i].Name < ix.statesByName[j].Name })
	sort.Slice(ix.districtsByName, func(i, j int) bool {
		a, b := ix.districtsByName[i], ix.districtsByName[j]
		return a.Name < b.Name || a.Name == b.Name && a.ID < b.ID
	})
}

func (ix *postalIndex) buildVillages() {
	ix.villageKeys = make([]string, len(ix.ds.Villages))
	for i, v := range ix.ds.Villages {
		ix.villageKeys[i] = postal.NameKey(v.Name)
		ix.villagesByPin[v.Pincode] = append(ix.villagesByPin[v.Pincode], int32(i))
	}
	for _, idx := range ix.villagesByPin {
		ix.sortVillages(idx)
	}
}

func (ix *postalIndex) sortVillages(idx []int32) {
	sort.Slice(idx, func(a, b int) bool {
		ka, kb := ix.villageKeys[idx[a]], ix.villageKeys[idx[b]]
		return ka < kb || ka == kb && ix.ds.Villages[idx[a]].Code < ix.ds.Villages[idx[b]].Code
	})
}

func (ix *postalIndex) offices(idx []int32) []postal.PostOffice {
	out := make([]postal.PostOffice, len(idx))
	for i, j := range idx {
		out[i] = ix.ds.Offices[j]
	}
	return out
}

func (ix *postalIndex) villages(idx []int32) []postal.Village {
	out := make([]postal.Village, len(idx))
	for i, j := range idx {
		out[i] = ix.ds.Villages[j]
	}
	return out
}

package memory

import (
	"sort"
	"strings"

	"github.com/pinsight/pinsight/domain/postal"
)

// postalIndex is an immutable dataset with its lookup structures.
type postalIndex struct {
	ds              *postal.Dataset
	info            postal.Info
	byPin           map[postal.Pincode][]int32 // offices by name
	byID            map[int64]int32            // office index by id
	byDistrict      map[int][]int32            // offices by pincode, name
	statesByName    []postal.StateSummary
	districtsByName []postal.DistrictSummary
	villagesByPin   map[postal.Pincode][]int32 // villages by name
	officeKeys      []string                   // postal.OfficeKey per office
	districtKeys    map[int][]string           // postal.NameKey of the name and alt name per district id
	villageKeys     []string                   // postal.NameKey per village
	officeWords     []wordRef                  // words of office keys, sorted
	districtWords   []wordRef                  // words of district names (ref = district id)
	pins            []postal.Pincode           // distinct, sorted
	near            nearIndex                  // located offices, spatially (postal_nearby.go)
	complete        *autocompleteIndex         // names, words and pincodes as typed (postal_autocomplete.go)
}

// wordRef is one word of a name and what it belongs to.
type wordRef struct {
	word string
	ref  int32
}

func buildIndex(ds *postal.Dataset) *postalIndex {
	ix := &postalIndex{
		ds: ds, byPin: map[postal.Pincode][]int32{}, byDistrict: map[int][]int32{},
		villagesByPin: map[postal.Pincode][]int32{}, districtKeys: map[int][]string{},
		officeKeys: make([]string, len(ds.Offices)), byID: make(map[int64]int32, len(ds.Offices)),
	}
	for i := range ds.Offices {
		o := &ds.Offices[i]
		ix.officeKeys[i] = postal.OfficeKey(o.Name)
		ix.byID[o.ID] = int32(i)
		ix.byPin[o.Pincode] = append(ix.byPin[o.Pincode], int32(i))
		if o.DistrictID != 0 {
			ix.byDistrict[o.DistrictID] = append(ix.byDistrict[o.DistrictID], int32(i))
		}
		for _, w := range strings.Fields(ix.officeKeys[i]) {
			ix.officeWords = append(ix.officeWords, wordRef{w, int32(i)})
		}
	}
	for pin, idx := range ix.byPin {
		ix.sortOffices(idx, false)
		ix.pins = append(ix.pins, pin)
	}
	for _, idx := range ix.byDistrict {
		ix.sortOffices(idx, true)
	}
	sort.Slice(ix.pins, func(i, j int) bool { return ix.pins[i] < ix.pins[j] })
	sortWords(ix.officeWords)
	ix.buildRegions()
	ix.buildVillages()
	ix.near = newNearIndex(ds.Offices)
	ix.complete = newAutocompleteIndex(ds, ix.officeKeys, ix.byDistrict, ix.pins, ix.byPin)
	ix.info = postal.Info{
		Loaded: true, HasLGD: ds.HasLGD, Offices: len(ds.Offices), Pincodes: len(ix.byPin),
		States: len(ds.States), Districts: len(ds.Districts), Villages: len(ds.Villages),
		VillageStates: ds.VillageStates, Report: ds.Report,
		Version: ds.Fingerprint(), Source: ds.Source,
	}
	return ix
}

// sortOffices orders office indexes by (pincode when byPincode,) name, id.
func (ix *postalIndex) sortOffices(idx []int32, byPincode bool) {
	offices := ix.ds.Offices
	sort.Slice(idx, func(a, b int) bool {
		oa, ob := &offices[idx[a]], &offices[idx[b]]
		if byPincode && oa.Pincode != ob.Pincode {
			return oa.Pincode < ob.Pincode
		}
		if ka, kb := ix.officeKeys[idx[a]], ix.officeKeys[idx[b]]; ka != kb {
			return ka < kb
		}
		return oa.ID < ob.ID
	})
}

func sortWords(w []wordRef) {
	sort.Slice(w, func(i, j int) bool { return w[i].word < w[j].word || w[i].word == w[j].word && w[i].ref < w[j].ref })
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
		for _, k := range ix.districtKeys[d.ID] {
			for _, w := range strings.Fields(k) {
				ix.districtWords = append(ix.districtWords, wordRef{w, int32(d.ID)})
			}
		}
	}
	sortWords(ix.districtWords)
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

// wordRange returns the refs whose word starts with prefix.
func wordRange(words []wordRef, prefix string) []wordRef {
	from := sort.Search(len(words), func(i int) bool { return words[i].word >= prefix })
	to := from
	for to < len(words) && strings.HasPrefix(words[to].word, prefix) {
		to++
	}
	return words[from:to]
}

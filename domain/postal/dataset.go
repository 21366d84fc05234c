package postal

import (
	"encoding/binary"
	"hash"
	"hash/crc32"
	"sort"
	"strconv"
	"strings"
)

// RawOffice is one row of the All India Pincode Directory, as published.
type RawOffice struct {
	Row                                                 int // 1-based data row (the header is row 0)
	Circle, Region, Division, Name, Pincode, OfficeType string
	Delivery, District, State, Latitude, Longitude      string
}

// RawVillage is one row of the LGD "Villages with PIN Codes" file.
type RawVillage struct {
	Row                                                int
	StateCode, StateName, DistrictCode, DistrictName   string
	SubdistrictName, VillageCode, VillageName, Pincode string
}

// Dataset is a cleaned directory, ready to be indexed by a store.
type Dataset struct {
	Offices       []PostOffice // in published order; IDs are the published row numbers
	States        []State      // by id
	Districts     []District   // by id
	Villages      []Village    // in published order, duplicates removed
	VillageStates []string     // states the village file covers
	HasLGD        bool         // ids are LGD codes (else derived from names)
	Report        CleaningReport
	Source        Source // where the rows were read from (set by the reader, not by Build)
	// Terminated holds the PINs of earlier releases that this one does not
	// have, each with the last release that had it (set by the loader from
	// the release history, not by Build; nil when none or not known).
	Terminated map[Pincode]Release
}

// CleaningReport counts what cleaning did; every published row is accounted
// for: Offices + DuplicateRows + InvalidPincodes + MalformedRows = rows read.
type CleaningReport struct {
	OfficeRows             int                     `json:"office_rows"`
	Offices                int                     `json:"offices"`
	MalformedRows          int                     `json:"malformed_rows"`
	DuplicateRows          int                     `json:"duplicate_rows"`
	InvalidPincodes        int                     `json:"invalid_pincodes"`
	Pincodes               int                     `json:"pincodes"`
	Locations              map[string]int          `json:"locations"`
	Qualities              map[LocationQuality]int `json:"location_quality"`
	ApproximateShared      int                     `json:"approximate_shared_point"`
	ApproximateOutlier     int                     `json:"approximate_far_from_pin"`
	RegionNA               int                     `json:"region_na"`
	InheritedStateDistrict int                     `json:"state_district_inherited"`
	UnknownStateDistrict   int                     `json:"state_district_unknown"`
	UnresolvedStateRows    int                     `json:"state_not_in_lgd_rows"`
	UnresolvedDistrictRows int                     `json:"district_not_in_lgd_rows"`
	DistrictsByAlias       int                     `json:"district_names_by_alias"`
	VillageRows            int                     `json:"village_rows"`
	Villages               int                     `json:"villages"`
	VillageDuplicates      int                     `json:"village_duplicate_rows"`
	VillageInvalid         int                     `json:"village_invalid_rows"`
}

// Build cleans the published rows into a Dataset. lgd may be nil (ids are
// then derived from names); villages may be empty.
func Build(rows []RawOffice, villages []RawVillage, lgd *LGD) *Dataset {
	ds := &Dataset{HasLGD: lgd != nil && len(lgd.States) > 0}
	r := &ds.Report
	r.OfficeRows = len(rows)
	r.Locations = map[string]int{}
	r.Qualities = map[LocationQuality]int{}
	// The villages are cleaned beside the offices (they touch only the
	// report's village counts).
	villagesDone := make(chan struct{})
	go func() {
		defer close(villagesDone)
		ds.Villages, ds.VillageStates = buildVillages(villages, r)
	}()
	keep := dropDuplicates(rows, r)
	inherited := inheritRegion(rows, keep, r)
	g := newGazetteer(lgd)
	rv := &resolver{g: g, cache: map[[2]string]region{}}
	alt := map[int]map[string]int{} // district id -> published spellings
	pins := map[Pincode]bool{}
	ds.Offices = make([]PostOffice, 0, len(keep))
	for _, k := range keep {
		raw := rows[k]
		if p, found := inherited[k]; found {
			raw.State, raw.District = p.state, p.district
		}
		o := cleanOffice(raw, rv, r, alt)
		pins[o.Pincode] = true
		ds.Offices = append(ds.Offices, o)
	}
	r.Offices, r.Pincodes = len(ds.Offices), len(pins)
	r.DistrictsByAlias = g.aliased
	markApproximate(ds.Offices, r)
	for _, o := range ds.Offices {
		r.Qualities[o.Quality]++
	}
	ds.States = buildStates(lgd, ds.Offices)
	ds.Districts = buildDistricts(g, ds.Offices, alt)
	<-villagesDone
	return ds
}

// dropDuplicates returns the positions of the rows to keep: the first of
// exactly equal rows, not rows whose PIN is not [1-9][0-9]{5}; it counts
// both.
func dropDuplicates(rows []RawOffice, r *CleaningReport) []int32 {
	// An invalid PIN is never seen before: rows equal to it have its PIN.
	seen := newRowSet(rows, rawOfficeKey, writeRawOffice)
	keep := make([]int32, 0, len(rows))
	for i := range rows {
		switch {
		case !ValidPincode(rows[i].Pincode):
			r.InvalidPincodes++
		case seen.add(i):
			r.DuplicateRows++
		default:
			keep = append(keep, int32(i))
		}
	}
	return keep
}

// stateDistrict is a published state and district pair.
type stateDistrict struct{ state, district string }

// inheritRegion gives the kept rows published with NA state and district
// those of the other rows of their PIN, when those all agree: it returns
// them by row position.
func inheritRegion(rows []RawOffice, keep []int32, r *CleaningReport) map[int32]stateDistrict {
	type pinRegion struct {
		stateDistrict
		many bool // the PIN's rows name more than one pair
	}
	known := map[string]pinRegion{}
	for _, k := range keep {
		o := &rows[k]
		if !isNA(o.State) && !isNA(o.District) {
			p := stateDistrict{o.State, o.District}
			if was, found := known[o.Pincode]; !found {
				known[o.Pincode] = pinRegion{stateDistrict: p}
			} else if !was.many && was.stateDistrict != p {
				known[o.Pincode] = pinRegion{many: true}
			}
		}
	}
	inherited := map[int32]stateDistrict{}
	for _, k := range keep {
		o := &rows[k]
		if !isNA(o.State) && !isNA(o.District) {
			continue
		}
		if p, found := known[o.Pincode]; found && !p.many {
			inherited[k] = p.stateDistrict
			r.InheritedStateDistrict++
		} else {
			r.UnknownStateDistrict++
		}
	}
	return inherited
}

func isNA(s string) bool { return s == "" || s == "NA" }

// region is the resolved state and district of one published pair.
type region struct {
	stateID, districtID int
	state, district     string
	stateInLGD, inLGD   bool
	altName             string // India Post's spelling when it differs from LGD's
}

// resolver resolves published (state, district) pairs once each.
type resolver struct {
	g     *gazetteer
	cache map[[2]string]region
}

func (rv *resolver) resolve(state, district string) region {
	key := [2]string{state, district}
	if reg, found := rv.cache[key]; found {
		return reg
	}
	reg := region{state: DisplayName(state), district: DisplayName(district)}
	reg.stateID, reg.stateInLGD = rv.g.state(state)
	reg.districtID, reg.inLGD = rv.g.district(reg.stateID, state, district)
	if name, _, found := rv.g.lgdDistrictName(reg.districtID); found && reg.inLGD {
		if compactKey(name) != compactKey(district) {
			reg.altName = reg.district
		}
		reg.district = name
	}
	rv.cache[key] = reg
	return reg
}

// cleanOffice turns one row into an office, resolving names to ids.
func cleanOffice(raw RawOffice, rv *resolver, r *CleaningReport, alt map[int]map[string]int) PostOffice {
	o := PostOffice{
		ID: int64(raw.Row), Pincode: Pincode(raw.Pincode), Name: raw.Name, OfficeType: raw.OfficeType,
		Delivery: raw.Delivery, Circle: raw.Circle, Region: raw.Region, Division: raw.Division,
	}
	if isNA(o.Region) {
		o.Region = ""
		r.RegionNA++
	}
	var rule string
	o.Location, o.Quality, rule = CleanLocation(raw.Latitude, raw.Longitude)
	r.Locations[rule]++
	if isNA(raw.State) || isNA(raw.District) {
		return o
	}
	reg := rv.resolve(raw.State, raw.District)
	if !reg.stateInLGD {
		r.UnresolvedStateRows++
	}
	if !reg.inLGD {
		r.UnresolvedDistrictRows++
	}
	if reg.altName != "" {
		if alt[reg.districtID] == nil {
			alt[reg.districtID] = map[string]int{}
		}
		alt[reg.districtID][reg.altName]++
	}
	o.StateID, o.State, o.DistrictID, o.District = reg.stateID, reg.state, reg.districtID, reg.district
	return o
}

// buildStates lists every LGD state, plus states known only by name.
func buildStates(lgd *LGD, offices []PostOffice) []State {
	byID := map[int]State{}
	for _, s := range sortedStates(lgd) {
		byID[s.Code] = State{ID: s.Code, Name: DisplayName(s.Name)}
	}
	for i, o := range offices {
		if o.StateID == 0 {
			continue
		}
		if s, found := byID[o.StateID]; found {
			offices[i].State = s.Name
		} else {
			byID[o.StateID] = State{ID: o.StateID, Name: o.State}
		}
	}
	out := make([]State, 0, len(byID))
	for _, s := range byID {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// buildDistricts lists every current LGD district, plus legacy-only and
// unresolved districts that offices use.
func buildDistricts(g *gazetteer, offices []PostOffice, alt map[int]map[string]int) []District {
	byID := map[int]District{}
	for code, d := range g.current {
		byID[code] = District{ID: code, Name: DisplayName(d.Name), StateID: d.StateCode}
	}
	for _, o := range offices {
		if o.DistrictID == 0 {
			continue
		}
		if _, found := byID[o.DistrictID]; !found {
			byID[o.DistrictID] = District{ID: o.DistrictID, Name: o.District, StateID: o.StateID}
		}
	}
	out := make([]District, 0, len(byID))
	for id, d := range byID {
		d.AltName = mostCommon(alt[id])
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// mostCommon returns the most frequent key (ties: alphabetical first).
func mostCommon(m map[string]int) string {
	best, n := "", 0
	for k, c := range m {
		if c > n || c == n && k < best {
			best, n = k, c
		}
	}
	return best
}

// buildVillages cleans the village rows: exact duplicates once, invalid
// PINs or codes reported and skipped.
func buildVillages(rows []RawVillage, r *CleaningReport) ([]Village, []string) {
	r.VillageRows = len(rows)
	seen := newRowSet(rows, rawVillageKey, writeRawVillage)
	states := map[string]bool{}
	display := map[string]string{} // DisplayName of the few distinct state and district names
	displayName := func(s string) string {
		d, found := display[s]
		if !found {
			d = DisplayName(s)
			display[s] = d
		}
		return d
	}
	out := make([]Village, 0, len(rows))
	for i, v := range rows {
		if seen.add(i) {
			r.VillageDuplicates++
			continue
		}
		stateID, err1 := strconv.Atoi(v.StateCode)
		districtID, err2 := strconv.Atoi(v.DistrictCode)
		if !ValidPincode(v.Pincode) || err1 != nil || err2 != nil || strings.TrimSpace(v.VillageName) == "" {
			r.VillageInvalid++
			continue
		}
		out = append(out, Village{
			Code: v.VillageCode, Name: v.VillageName, Subdistrict: v.SubdistrictName,
			District: displayName(v.DistrictName), DistrictID: districtID,
			State: displayName(v.StateName), StateID: stateID, Pincode: Pincode(v.Pincode),
		})
		states[displayName(v.StateName)] = true
	}
	if len(out) == 0 {
		out = nil
	}
	r.Villages = len(out)
	covered := make([]string, 0, len(states))
	for s := range states {
		covered = append(covered, s)
	}
	sort.Strings(covered)
	return out, covered
}

// Fingerprint identifies the dataset's content: the same files give the same
// fingerprint in every process and adapter (it feeds ETags), and a change to
// anything a response shows (an office's fields, a state's or district's
// name, a village) gives another one.
func (ds *Dataset) Fingerprint() string {
	f := fingerprint{a: crc32.New(crc32.MakeTable(crc32.Castagnoli)), b: crc32.NewIEEE()}
	for i := range ds.Offices {
		o := &ds.Offices[i]
		f.num(o.ID, int64(o.StateID), int64(o.DistrictID))
		f.str(string(o.Pincode), o.Name, o.OfficeType, o.Delivery, o.Circle, o.Region, o.Division, o.District, o.State, string(o.Quality))
		f.buf = appendLocation(f.buf, o.Location)
		f.next()
	}
	for _, s := range ds.States {
		f.num(int64(s.ID))
		f.str(s.Name)
	}
	for _, d := range ds.Districts {
		f.num(int64(d.ID), int64(d.StateID))
		f.str(d.Name, d.AltName)
	}
	for i := range ds.Villages {
		v := &ds.Villages[i]
		f.num(int64(v.StateID), int64(v.DistrictID))
		f.str(v.Code, v.Name, v.Subdistrict, v.District, v.State, string(v.Pincode))
		f.next()
	}
	f.flush()
	return strconv.FormatUint(uint64(f.a.Sum32())<<32|uint64(f.b.Sum32()), 36)
}

// fingerprint feeds fields to two CRC-32s (both hardware-accelerated on
// common CPUs: 64 bits in all) through one buffer, each string terminated
// so that ("ab", "c") and ("a", "bc") differ.
type fingerprint struct {
	a, b hash.Hash32
	buf  []byte
}

func (f *fingerprint) str(ss ...string) {
	for _, s := range ss {
		f.buf = append(f.buf, s...)
		f.buf = append(f.buf, 0)
	}
}

func (f *fingerprint) num(ns ...int64) {
	for _, n := range ns {
		f.buf = binary.AppendVarint(f.buf, n)
	}
}

// next ends a record, hashing the buffer once it is large enough.
func (f *fingerprint) next() {
	if len(f.buf) >= 32<<10 {
		f.flush()
	}
}

func (f *fingerprint) flush() {
	f.a.Write(f.buf)
	f.b.Write(f.buf)
	f.buf = f.buf[:0]
}

package postal

import (
	"hash/fnv"
	"sort"
	"strings"
)

// LGDState is a row of the LGD states export.
type LGDState struct {
	Code int
	Name string
}

// LGDDistrict is a row of an LGD districts export.
type LGDDistrict struct {
	Code      int
	Name      string
	StateCode int
}

// LGD holds the Local Government Directory codes used as state and district
// ids. Legacy holds an older export whose spellings India Post still uses.
type LGD struct {
	States    []LGDState
	Districts []LGDDistrict
	Legacy    []LGDDistrict
}

// districtAliases resolve the India Post spellings that match no LGD name,
// keyed by compact state and district keys, to the compact LGD name.
var districtAliases = map[[2]string]string{
	{"karnataka", "bagalkot"}:      "bagalkote",
	{"karnataka", "vijaynagar"}:    "vijayanagara",
	{"punjab", "firozepur"}:        "ferozepur",
	{"andhrapradesh", "konaseema"}: "drbrambedkarkonaseema",
}

// gazetteer resolves published state and district names to ids.
type gazetteer struct {
	states    map[string]int // compact state key -> code
	districts map[[2]any]int // (state code, compact district key) -> code
	current   map[int]LGDDistrict
	legacy    map[int]LGDDistrict
	derived   map[string]int // names without an LGD code -> derived id
	usedIDs   map[int]bool
	aliased   int
}

func newGazetteer(lgd *LGD) *gazetteer {
	g := &gazetteer{states: map[string]int{}, districts: map[[2]any]int{}, current: map[int]LGDDistrict{},
		legacy: map[int]LGDDistrict{}, derived: map[string]int{}, usedIDs: map[int]bool{}}
	if lgd == nil {
		return g
	}
	for _, s := range lgd.States {
		g.states[stateKey(s.Name)] = s.Code
		g.usedIDs[s.Code] = true
	}
	for _, d := range lgd.Legacy {
		g.legacy[d.Code] = d
		g.districts[[2]any{d.StateCode, compactKey(d.Name)}] = d.Code
	}
	for _, d := range lgd.Districts { // current names win over legacy ones
		g.current[d.Code] = d
		g.districts[[2]any{d.StateCode, compactKey(d.Name)}] = d.Code
	}
	for code := range g.current {
		g.usedIDs[code] = true
	}
	for code := range g.legacy {
		g.usedIDs[code] = true
	}
	return g
}

// stateKey ignores a leading "THE" ("THE DADRA AND NAGAR HAVELI...").
func stateKey(name string) string {
	k := NameKey(name)
	k = strings.TrimPrefix(k, "the ")
	return strings.ReplaceAll(k, " ", "")
}

// state returns the id of a published state name, deriving one when LGD
// does not know it.
func (g *gazetteer) state(name string) (int, bool) {
	if code, found := g.states[stateKey(name)]; found {
		return code, true
	}
	return g.derive("state:" + stateKey(name)), false
}

// district returns the id of a published district name within a state.
func (g *gazetteer) district(stateID int, stateName, name string) (int, bool) {
	key := compactKey(name)
	if code, found := g.districts[[2]any{stateID, key}]; found {
		return code, true
	}
	if alias, found := districtAliases[[2]string{stateKey(stateName), key}]; found {
		if code, found := g.districts[[2]any{stateID, alias}]; found {
			g.aliased++
			return code, true
		}
	}
	return g.derive("district:" + stateKey(stateName) + "/" + key), false
}

// derive gives a name without an LGD code a stable id of its own, from a
// hash of the name, above every LGD code, probing past collisions.
func (g *gazetteer) derive(key string) int {
	if id, found := g.derived[key]; found {
		return id
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	id := 100000 + int(h.Sum32()%900000)
	for g.usedIDs[id] {
		id++
	}
	g.usedIDs[id] = true
	g.derived[key] = id
	return id
}

// lgdDistrictName is the display name of an LGD district code.
func (g *gazetteer) lgdDistrictName(code int) (string, int, bool) {
	if d, found := g.current[code]; found {
		return DisplayName(d.Name), d.StateCode, true
	}
	if d, found := g.legacy[code]; found {
		return DisplayName(d.Name), d.StateCode, true
	}
	return "", 0, false
}

// sortedStates returns LGD states by code.
func sortedStates(lgd *LGD) []LGDState {
	if lgd == nil {
		return nil
	}
	out := append([]LGDState(nil), lgd.States...)
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

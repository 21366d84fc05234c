package tests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
	"github.com/pinsight/pinsight/ports"
)

// TestPostgresMatchesMemory loads the real directory into both stores and
// compares their answers on a sample of pincodes, villages, states,
// districts, searches, nearby points and DIGIPIN cells: they must be
// identical.
func TestPostgresMatchesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("full-data equivalence: skipped with -short")
	}
	db, ds := importedFull(t)
	eq := &equivalence{t: t, mem: memory.NewPostalStore(ds), pg: postgres.NewPostalStore(db)}
	eq.info()
	eq.pincodes(ds)
	eq.regions()
	eq.searches(ds)
	eq.nearby(ds)
	eq.cells(ds)
	t.Logf("compared %d answers", eq.n)
}

type equivalence struct {
	t       *testing.T
	mem, pg ports.PostalStore
	n       int
}

var ctx = context.Background()

// same compares two answers (nil and empty slices alike).
func (e *equivalence) same(what string, mem, pg any) {
	e.t.Helper()
	e.n++
	if !reflect.DeepEqual(normalise(mem), normalise(pg)) {
		e.t.Errorf("%s differs:\nmemory   %+v\npostgres %+v", what, mem, pg)
	}
}

// normalise turns nil slices into empty ones.
func normalise(v any) any {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice && rv.IsNil() {
		return reflect.MakeSlice(rv.Type(), 0, 0).Interface()
	}
	return v
}

type answer struct {
	Value any
	Total int
	Err   string
}

func ans(v any, total int, err error) answer {
	a := answer{Value: normalise(v), Total: total}
	if err != nil {
		a.Err = err.Error()
	}
	return a
}

func (e *equivalence) info() {
	mi, err1 := e.mem.Info(ctx)
	pi, err2 := e.pg.Info(ctx)
	e.same("Info", ans(mi, 0, err1), ans(pi, 0, err2))
}

func (e *equivalence) pincodes(ds *postal.Dataset) {
	pins := map[postal.Pincode]bool{}
	for i := 0; i < len(ds.Offices); i += 331 {
		pins[ds.Offices[i].Pincode] = true
	}
	for i := 0; i < len(ds.Villages); i += 97 {
		pins[ds.Villages[i].Pincode] = true
	}
	pins["423101"], pins["464573"], pins["110001"], pins["999999"] = true, true, true, true
	for pin := range pins {
		m, err1 := e.mem.OfficesByPincode(ctx, pin)
		p, err2 := e.pg.OfficesByPincode(ctx, pin)
		e.same("OfficesByPincode("+string(pin)+")", ans(m, 0, err1), ans(p, 0, err2))
		for _, page := range []paging.Page{{Number: 1, PerPage: 10}, {Number: 2, PerPage: 7}} {
			m, mt, err1 := e.mem.Villages(ctx, pin, page)
			p, pt, err2 := e.pg.Villages(ctx, pin, page)
			e.same(fmt.Sprintf("Villages(%s, %v)", pin, page), ans(m, mt, err1), ans(p, pt, err2))
		}
	}
}

func (e *equivalence) regions() {
	for _, prefix := range []string{"", "a", "West", "utt", "jammu and", "zz", "pradesh", "nagar diu", "desh"} {
		m, err1 := e.mem.States(ctx, prefix)
		p, err2 := e.pg.States(ctx, prefix)
		e.same("States("+prefix+")", ans(m, 0, err1), ans(p, 0, err2))
	}
	states, _ := e.mem.States(ctx, "")
	for _, s := range states {
		for _, ref := range []string{fmt.Sprint(s.ID), s.Name, s.Name[:3]} {
			m, err1 := e.mem.State(ctx, ref)
			p, err2 := e.pg.State(ctx, ref)
			e.same("State("+ref+")", ans(m, 0, err1), ans(p, 0, err2))
		}
		for _, prefix := range []string{"", "s", "north", "nagar", "pur"} {
			m, err1 := e.mem.Districts(ctx, s.ID, prefix)
			p, err2 := e.pg.Districts(ctx, s.ID, prefix)
			e.same(fmt.Sprintf("Districts(%d, %s)", s.ID, prefix), ans(m, 0, err1), ans(p, 0, err2))
			for i, d := range m {
				if i%3 != 0 || prefix != "" {
					continue
				}
				e.district(d)
			}
		}
	}
	for _, ref := range []string{"Aurangabad", "Bilaspur", "Hamirpur", "north", "Shahdara", "Mahe", "Yanam", "nowhere", "0", "99999"} {
		m, err1 := e.mem.District(ctx, ref)
		p, err2 := e.pg.District(ctx, ref)
		e.same("District("+ref+")", ans(m, 0, err1), ans(p, 0, err2))
	}
}

func (e *equivalence) district(d postal.DistrictSummary) {
	refs := []string{fmt.Sprint(d.ID), d.Name, d.Name[:min(4, len(d.Name))]}
	if d.AltName != "" {
		refs = append(refs, d.AltName)
	}
	for _, ref := range refs {
		m, err1 := e.mem.District(ctx, ref)
		p, err2 := e.pg.District(ctx, ref)
		e.same("District("+ref+")", ans(m, 0, err1), ans(p, 0, err2))
	}
	for _, page := range []paging.Page{{Number: 1, PerPage: 10}, {Number: 3, PerPage: 25}, {Number: 1000, PerPage: 100}} {
		m, mt, err1 := e.mem.DistrictOffices(ctx, d.ID, page)
		p, pt, err2 := e.pg.DistrictOffices(ctx, d.ID, page)
		e.same(fmt.Sprintf("DistrictOffices(%d, %v)", d.ID, page), ans(m, mt, err1), ans(p, pt, err2))
	}
}

func (e *equivalence) searches(ds *postal.Dataset) {
	v := ds.Villages[len(ds.Villages)/2]
	queries := []string{"patna", "new delhi", "connaught", "gpo", "nagar", "s", "ra", "rampur", "bagalkot",
		"north 24", "kolkata", "11", "110001", "4231", "8", "chandan", "pur", "bazar b.o", "sector 1", "anand"}
	pages := []paging.Page{{Number: 1, PerPage: 10}, {Number: 4, PerPage: 100}}
	for _, text := range queries {
		q, err := postal.ParseQuery(text)
		if err != nil {
			e.t.Fatalf("ParseQuery(%q): %v", text, err)
		}
		for _, page := range pages {
			m, mt, err1 := e.mem.SearchOffices(ctx, q, page)
			p, pt, err2 := e.pg.SearchOffices(ctx, q, page)
			e.same(fmt.Sprintf("SearchOffices(%q, %v)", text, page), ans(m, mt, err1), ans(p, pt, err2))
			for _, region := range [][2]int{{0, 0}, {v.StateID, 0}, {0, v.DistrictID}, {v.StateID, v.DistrictID}} {
				m, mt, err1 := e.mem.SearchVillages(ctx, q, region[0], region[1], page)
				p, pt, err2 := e.pg.SearchVillages(ctx, q, region[0], region[1], page)
				e.same(fmt.Sprintf("SearchVillages(%q, %v, %v)", text, region, page), ans(villageOrder(m), mt, err1), ans(villageOrder(p), pt, err2))
			}
		}
	}
}

// villageOrder sorts villages that tie in the contract's order (same name
// key and code: one village served by several PINs) by pincode, since the
// port leaves their order open.
func villageOrder(vs []postal.Village) []postal.Village {
	out := append([]postal.Village(nil), vs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if postal.NameKey(a.Name) == postal.NameKey(b.Name) && a.Code == b.Code {
			return a.Pincode < b.Pincode
		}
		return false
	})
	return out
}

func (e *equivalence) nearby(ds *postal.Dataset) {
	rng := rand.New(rand.NewPCG(5, 11))
	var points []geo.Point
	for i := 0; i < len(ds.Offices); i += 1657 {
		if loc := ds.Offices[i].Location; loc != nil {
			points = append(points, geo.Point{Lat: loc.Latitude, Lon: loc.Longitude}) // on an office: ties
		}
	}
	for range 60 {
		points = append(points, geo.Point{Lat: 8 + rng.Float64()*27, Lon: 69 + rng.Float64()*28})
	}
	for _, pt := range points {
		for _, c := range []struct {
			limit    int
			withinKm float64
		}{{1, 0}, {10, 0}, {50, 0}, {10, 5}, {100, 25}} {
			m, err1 := e.mem.NearestOffices(ctx, geo.NearQuery{Point: pt, Limit: c.limit, RadiusKm: c.withinKm})
			p, err2 := e.pg.NearestOffices(ctx, geo.NearQuery{Point: pt, Limit: c.limit, RadiusKm: c.withinKm})
			e.same(fmt.Sprintf("NearestOffices(%v, %d, %v)", pt, c.limit, c.withinKm), ans(m, 0, err1), ans(p, 0, err2))
		}
	}
}

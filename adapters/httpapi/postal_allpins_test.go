package httpapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/tests/race"
)

// rawOffice is what the all-PIN comparison checks of each office.
type rawOffice struct{ name, officeType, division, delivery string }

// branchTypes maps the directory's officetype column to branch_type.
var branchTypes = map[string]string{"HO": "Head Office", "PO": "Sub Office", "BO": "Branch Office"}

// readDirectoryByPin reads the published directory with nothing but
// compress/gzip and encoding/csv (readSnapshotCSV, not the reader under test),
// keeping exact duplicate rows once, and groups its offices by pincode.
func readDirectoryByPin(t *testing.T) (map[string][]rawOffice, int) {
	t.Helper()
	byPin := map[string][]rawOffice{}
	seen := map[string]bool{}
	offices := 0
	for _, r := range readSnapshotCSV(t, "all_india_pincode_directory.csv.gz") {
		key := fmt.Sprint(r) // maps print with sorted keys: the whole row
		if seen[key] {
			continue
		}
		seen[key] = true
		byPin[r["pincode"]] = append(byPin[r["pincode"]], rawOffice{r["officename"], r["officetype"], r["divisionname"], r["delivery"]})
		offices++
	}
	return byPin, offices
}

// multisetDiff describes how got differs from want, ignoring order ("" when
// they are equal as multisets).
func multisetDiff(want, got []rawOffice) string {
	count := map[rawOffice]int{}
	for _, o := range want {
		count[o]++
	}
	for _, o := range got {
		count[o]--
	}
	var diff []string
	for o, n := range count {
		switch {
		case n > 0:
			diff = append(diff, fmt.Sprintf("missing %dx %+v", n, o))
		case n < 0:
			diff = append(diff, fmt.Sprintf("extra %dx %+v", -n, o))
		}
	}
	sort.Strings(diff)
	return strings.Join(diff, "; ")
}

// allPinsFailures reports up to 20 failures, then only counts them.
type allPinsFailures struct {
	t *testing.T
	n int
}

func (f *allPinsFailures) add(format string, args ...any) {
	f.t.Helper()
	if f.n++; f.n <= 20 {
		f.t.Errorf(format, args...)
	}
}

func (f *allPinsFailures) done() {
	if f.n > 20 {
		f.t.Errorf("... %d failures in all", f.n)
	}
}

// sortedPins returns the keys of byPin in order.
func sortedPins(byPin map[string][]rawOffice) []string {
	pins := make([]string, 0, len(byPin))
	for pin := range byPin {
		pins = append(pins, pin)
	}
	sort.Strings(pins)
	return pins
}

// TestAllPins checks, for every PIN of the published directory, that the
// offices directory.Directory.Lookup serves are exactly its rows (exact duplicate
// rows once), and that valid PINs next to them that the directory lacks are
// not found.
func TestAllPins(t *testing.T) {
	_, store, _ := loadFull(t)
	want, total := readDirectoryByPin(t)
	if len(want) != 19586 || total != 165625 {
		t.Fatalf("the directory has %d PINs, %d offices; want 19,586 and 165,625", len(want), total)
	}
	p := directory.New(store)
	ctx := context.Background()
	fail := &allPinsFailures{t: t}
	defer fail.done()
	served := 0
	pins := sortedPins(want)
	for _, pin := range pins {
		_, offices, err := p.Lookup(ctx, pin)
		if err != nil {
			fail.add("Lookup(%s): %v", pin, err)
			continue
		}
		got := make([]rawOffice, len(offices))
		for i, o := range offices {
			got[i] = rawOffice{o.Name, o.OfficeType, o.Division, o.Delivery}
			if string(o.Pincode) != pin {
				fail.add("Lookup(%s) returned an office of %s", pin, o.Pincode)
			}
		}
		served += len(offices)
		if d := multisetDiff(want[pin], got); d != "" {
			fail.add("Lookup(%s): %s", pin, d)
		}
	}
	if served != total {
		t.Errorf("served %d offices over all PINs, want %d", served, total)
	}
	absent := 0
	for _, pin := range pins {
		n, _ := strconv.Atoi(pin)
		next := strconv.Itoa(n + 1)
		if _, listed := want[next]; listed || !postal.ValidPincode(next) {
			continue
		}
		absent++
		if _, _, err := p.Lookup(ctx, next); !errors.Is(err, postal.ErrNotFound) {
			fail.add("Lookup(%s) (not in the directory) = %v, want not found", next, err)
		}
	}
	t.Logf("%d PINs, %d offices compared; %d absent PINs answered not found", len(pins), served, absent)
}

// TestAllPinsHTTP makes the same comparison through GET /pincodes/{pincode}
// for every PIN. It takes ~25 s under the race detector on 2 cores, so the
// race pass skips it: heavy full-data equivalence tests run once, in the
// plain pass, never under -race.
func TestAllPinsHTTP(t *testing.T) {
	if race.Enabled {
		t.Skip("skipped under the race detector: runs in the plain test pass")
	}
	_, _, h := loadFull(t)
	want, _ := readDirectoryByPin(t)
	fail := &allPinsFailures{t: t}
	defer fail.done()
	for _, pin := range sortedPins(want) {
		var d httpapi.PincodeData
		res := apitest.Do(t, h, http.MethodGet, "/api/v1/pincodes/"+pin, "", "")
		if res.Status != http.StatusOK {
			fail.add("GET /pincodes/%s = %d %s", pin, res.Status, res.Message)
			continue
		}
		res.Decode(t, &d)
		wantHTTP := make([]rawOffice, len(want[pin]))
		for i, o := range want[pin] {
			wantHTTP[i] = rawOffice{o.name, branchTypes[o.officeType], o.division, o.delivery}
		}
		got := make([]rawOffice, len(d.PostOffices))
		for i, o := range d.PostOffices {
			got[i] = rawOffice{o.PostOffice, o.BranchType, o.Division, o.DeliveryStatus}
		}
		if diff := multisetDiff(wantHTTP, got); diff != "" || d.Pincode != pin || d.Total != len(got) {
			fail.add("GET /pincodes/%s (pincode %s, total %d): %s", pin, d.Pincode, d.Total, diff)
		}
	}
}

package postal

import (
	"github.com/pinsight/pinsight/geo"
)

// ChangeKind says what changed between two releases.
type ChangeKind string

// Kinds of change, in the order Diff reports them within a PIN.
const (
	ChangePinAdded      ChangeKind = "pincode_added"
	ChangePinRemoved    ChangeKind = "pincode_removed"
	ChangeOfficeAdded   ChangeKind = "office_added"
	ChangeOfficeRemoved ChangeKind = "office_removed"
	ChangeRenamed       ChangeKind = "office_renamed"
	ChangeRetyped       ChangeKind = "office_retyped"
	ChangeMoved         ChangeKind = "office_moved"
)

// ChangeKinds lists every kind of change.
var ChangeKinds = []ChangeKind{ChangePinAdded, ChangePinRemoved, ChangeOfficeAdded, ChangeOfficeRemoved,
	ChangeRenamed, ChangeRetyped, ChangeMoved}

// MoveThresholdKm is how far an office's location must change to count as
// moved (smaller changes are rounding and re-surveys).
const MoveThresholdKm = 0.1

// Change is one difference between a release and the one before it.
type Change struct {
	Kind    ChangeKind
	Pincode Pincode
	// Office is the office's name in the newer release (the older one's
	// for a removal); "" for a PIN's own change.
	Office string
	// OfficeType is the office's type in the newer release (the older
	// one's for a removal); "" for a PIN's own change.
	OfficeType string
	// Before and After are the old and new names (renamed) or types
	// (retyped); "" otherwise.
	Before, After string
	// From and To are the old and new locations of a moved office.
	From, To *Location
	// DistanceKm is how far a moved office moved (0 otherwise).
	DistanceKm float64
}

// ReleaseChange is a change with the release that brought it.
type ReleaseChange struct {
	Release int64 // the Seq of the release the change came with
	Change
}

// Diff compares two releases' offices, both sorted by SortReleaseOffices
// (ReleaseOffices gives them so), and calls emit with every change, by PIN.
// Within a PIN, offices are paired by exact name, then by OfficeKey (a
// change of spelling or suffix is a rename), then in order among offices
// of the same type (a rename); the rest are added or removed. A PIN that
// appears or disappears is reported, then each of its offices. Diff holds
// nothing but one PIN's offices at a time.
func Diff(old, cur []ReleaseOffice, emit func(Change)) {
	var d differ
	i, j := 0, 0
	for i < len(old) || j < len(cur) {
		var pin Pincode
		switch {
		case j == len(cur) || i < len(old) && old[i].Pincode < cur[j].Pincode:
			pin = old[i].Pincode
		default:
			pin = cur[j].Pincode
		}
		i2, j2 := i, j
		for i2 < len(old) && old[i2].Pincode == pin {
			i2++
		}
		for j2 < len(cur) && cur[j2].Pincode == pin {
			j2++
		}
		d.pin(pin, old[i:i2], cur[j:j2], emit)
		i, j = i2, j2
	}
}

// differ holds the scratch of Diff, reused from PIN to PIN.
type differ struct {
	pairOf  []int  // old office -> its new office's index, -1: none
	usedNew []bool // new office paired
}

func (d *differ) pin(pin Pincode, old, cur []ReleaseOffice, emit func(Change)) {
	switch {
	case len(old) == 0:
		emit(Change{Kind: ChangePinAdded, Pincode: pin})
		for _, o := range cur {
			emit(Change{Kind: ChangeOfficeAdded, Pincode: pin, Office: o.Name, OfficeType: o.OfficeType})
		}
		return
	case len(cur) == 0:
		emit(Change{Kind: ChangePinRemoved, Pincode: pin})
		for _, o := range old {
			emit(Change{Kind: ChangeOfficeRemoved, Pincode: pin, Office: o.Name, OfficeType: o.OfficeType})
		}
		return
	}
	d.pairOf = d.pairOf[:0]
	for range old {
		d.pairOf = append(d.pairOf, -1)
	}
	d.usedNew = d.usedNew[:0]
	for range cur {
		d.usedNew = append(d.usedNew, false)
	}
	d.match(old, cur, func(a, b *ReleaseOffice) bool { return a.Name == b.Name })
	d.match(old, cur, func(a, b *ReleaseOffice) bool { return OfficeKey(a.Name) == OfficeKey(b.Name) })
	d.match(old, cur, func(a, b *ReleaseOffice) bool { return a.OfficeType == b.OfficeType })
	for k, o := range old {
		if d.pairOf[k] < 0 {
			emit(Change{Kind: ChangeOfficeRemoved, Pincode: pin, Office: o.Name, OfficeType: o.OfficeType})
		}
	}
	for k, o := range cur {
		if !d.usedNew[k] {
			emit(Change{Kind: ChangeOfficeAdded, Pincode: pin, Office: o.Name, OfficeType: o.OfficeType})
		}
	}
	for k := range old {
		if n := d.pairOf[k]; n >= 0 {
			compare(pin, &old[k], &cur[n], emit)
		}
	}
}

// match pairs the unpaired old and new offices that same says are the
// same, each with the first such unpaired one.
func (d *differ) match(old, cur []ReleaseOffice, same func(a, b *ReleaseOffice) bool) {
	for k := range old {
		if d.pairOf[k] >= 0 {
			continue
		}
		for n := range cur {
			if !d.usedNew[n] && same(&old[k], &cur[n]) {
				d.pairOf[k], d.usedNew[n] = n, true
				break
			}
		}
	}
}

// compare emits what changed in one office between two releases.
func compare(pin Pincode, a, b *ReleaseOffice, emit func(Change)) {
	base := Change{Pincode: pin, Office: b.Name, OfficeType: b.OfficeType}
	if a.Name != b.Name {
		c := base
		c.Kind, c.Before, c.After = ChangeRenamed, a.Name, b.Name
		emit(c)
	}
	if a.OfficeType != b.OfficeType {
		c := base
		c.Kind, c.Before, c.After = ChangeRetyped, a.OfficeType, b.OfficeType
		emit(c)
	}
	if a.Location != nil && b.Location != nil {
		km := geo.DistanceKm(geo.Point{Lat: a.Location.Latitude, Lon: a.Location.Longitude},
			geo.Point{Lat: b.Location.Latitude, Lon: b.Location.Longitude})
		if km > MoveThresholdKm {
			c := base
			c.Kind, c.From, c.To, c.DistanceKm = ChangeMoved, a.Location, b.Location, km
			emit(c)
		}
	}
}

// TerminatedPins folds the PIN changes of a history (in release order) into
// the PINs that existed in an earlier release and do not in the latest,
// each with the last release that had it. releases must hold every release
// before a removal.
func TerminatedPins(releases []Release, pinChanges []ReleaseChange) map[Pincode]Release {
	bySeq := make(map[int64]Release, len(releases))
	for _, r := range releases {
		bySeq[r.Seq] = r
	}
	out := map[Pincode]Release{}
	for _, c := range pinChanges {
		switch c.Kind {
		case ChangePinRemoved:
			out[c.Pincode] = bySeq[c.Release-1]
		case ChangePinAdded:
			delete(out, c.Pincode)
		}
	}
	return out
}

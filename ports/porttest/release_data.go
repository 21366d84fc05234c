package porttest

import (
	"strconv"

	"github.com/pinsight/pinsight/domain/postal"
)

// ReleaseEdits names what SecondRelease changed, so that tests can look
// for each change.
type ReleaseEdits struct {
	RemovedPin     postal.Pincode // every office of it removed: a terminated PIN
	RemovedOffice  string         // one office removed from RemovedFrom, which keeps others
	RemovedFrom    postal.Pincode
	RenamedPin     postal.Pincode
	RenamedFrom    string
	RenamedTo      string
	MovedPin       postal.Pincode
	MovedOffice    string // moved about 1.1 km north
	RetypedPin     postal.Pincode
	RetypedOffice  string // a branch office made a sub office
	AddedPin       postal.Pincode
	AddedOffice    string
	UnchangedPin   postal.Pincode // a PIN none of the edits touch
	RemovedOffices int            // offices of RemovedPin
}

// SecondRelease edits a release's directory rows (the snapshot's, say) into
// a later release: one PIN removed, one office removed, one renamed, one
// moved, one retyped and a new PIN with one office. Each edit is on its
// own PIN, one whose offices all have different names; it reports what it
// did. It leaves rows unchanged and returns the new ones.
func SecondRelease(rows []postal.RawOffice) ([]postal.RawOffice, ReleaseEdits) {
	byPin := map[string][]int{}
	var pins []string
	for i, r := range rows {
		if !postal.ValidPincode(r.Pincode) {
			continue
		}
		if byPin[r.Pincode] == nil {
			pins = append(pins, r.Pincode)
		}
		byPin[r.Pincode] = append(byPin[r.Pincode], i)
	}
	distinct := func(pin string) bool {
		seen := map[string]bool{}
		for _, i := range byPin[pin] {
			key := postal.OfficeKey(rows[i].Name)
			if seen[key] {
				return false
			}
			seen[key] = true
		}
		return true
	}
	located := func(r postal.RawOffice) bool {
		lat, err1 := strconv.ParseFloat(r.Latitude, 64)
		lon, err2 := strconv.ParseFloat(r.Longitude, 64)
		return err1 == nil && err2 == nil && lat > 9 && lat < 35 && lon > 70 && lon < 95
	}
	out := append([]postal.RawOffice(nil), rows...)
	drop := map[int]bool{}
	var e ReleaseEdits
	step := 0
	for _, pin := range pins {
		idx := byPin[pin]
		if !distinct(pin) {
			continue
		}
		switch {
		case step == 0:
			e.RemovedPin, e.RemovedOffices = postal.Pincode(pin), len(idx)
			for _, i := range idx {
				drop[i] = true
			}
		case step == 1 && len(idx) >= 2:
			i := idx[len(idx)-1]
			e.RemovedFrom, e.RemovedOffice = postal.Pincode(pin), rows[i].Name
			drop[i] = true
		case step == 2 && len(idx) >= 2:
			i := idx[0]
			e.RenamedPin, e.RenamedFrom, e.RenamedTo = postal.Pincode(pin), rows[i].Name, "Pinsight Renamed "+rows[i].Name
			out[i].Name = e.RenamedTo
		case step == 3 && located(rows[idx[0]]):
			i := idx[0]
			lat, _ := strconv.ParseFloat(rows[i].Latitude, 64)
			e.MovedPin, e.MovedOffice = postal.Pincode(pin), rows[i].Name
			out[i].Latitude = strconv.FormatFloat(lat+0.01, 'f', -1, 64)
		case step == 4 && rows[idx[0]].OfficeType == postal.TypeBranch:
			i := idx[0]
			e.RetypedPin, e.RetypedOffice = postal.Pincode(pin), rows[i].Name
			out[i].OfficeType = postal.TypeSub
		case step == 5:
			e.UnchangedPin = postal.Pincode(pin)
		default:
			continue
		}
		step++
		if step == 6 {
			break
		}
	}
	kept := out[:0]
	for i, r := range out {
		if !drop[i] {
			kept = append(kept, r)
		}
	}
	for n := 999999; n > 100000; n-- {
		if byPin[strconv.Itoa(n)] == nil {
			e.AddedPin = postal.Pincode(strconv.Itoa(n))
			break
		}
	}
	added := rows[byPin[string(e.UnchangedPin)][0]]
	added.Row, added.Name, added.Pincode, added.OfficeType = len(kept)+1, "Pinsight New B.O", string(e.AddedPin), postal.TypeBranch
	e.AddedOffice = added.Name
	return append(kept, added), e
}

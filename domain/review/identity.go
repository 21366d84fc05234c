package review

import (
	"strconv"
	"strings"

	"github.com/pinsight/pinsight/domain/postal"
)

// Office is the stable identity of a post office across dataset releases.
type Office struct {
	Pincode    postal.Pincode
	NameKey    string // postal.OfficeKey of the published name
	OfficeType string // HO, PO or BO
	Ordinal    int    // 0 for the first office sharing the three above in file order, then 1...
}

// Key is the identity as one string, the storage key:
// "pincode|name key|type|ordinal". Name keys hold letters, digits and
// spaces only, so the separator cannot be ambiguous.
func (o Office) Key() string {
	return string(o.Pincode) + "|" + o.NameKey + "|" + o.OfficeType + "|" + strconv.Itoa(o.Ordinal)
}

// ParseKey is the inverse of Key.
func ParseKey(key string) (Office, bool) {
	parts := strings.Split(key, "|")
	if len(parts) != 4 {
		return Office{}, false
	}
	n, err := strconv.Atoi(parts[3])
	if err != nil || n < 0 {
		return Office{}, false
	}
	return Office{Pincode: postal.Pincode(parts[0]), NameKey: parts[1], OfficeType: parts[2], Ordinal: n}, true
}

// Identify returns the identity of each office of offices by its id.
// offices must hold every office of the release whose pincode is one of
// theirs (e.g. the offices of one or more whole pincodes), in any order:
// the ordinal counts the offices sharing pincode, name key and type with a
// smaller id. An office given twice counts once.
func Identify(offices []postal.PostOffice) map[int64]Office {
	type group struct {
		pin       postal.Pincode
		key, kind string
	}
	out := make(map[int64]Office, len(offices))
	byGroup := map[group][]int64{}
	seen := make(map[int64]bool, len(offices))
	for _, o := range offices {
		if seen[o.ID] { // a pincode given twice
			continue
		}
		seen[o.ID] = true
		g := group{o.Pincode, postal.OfficeKey(o.Name), o.OfficeType}
		byGroup[g] = append(byGroup[g], o.ID)
	}
	for g, ids := range byGroup {
		for _, id := range ids {
			n := 0
			for _, other := range ids {
				if other < id {
					n++
				}
			}
			out[id] = Office{Pincode: g.pin, NameKey: g.key, OfficeType: g.kind, Ordinal: n}
		}
	}
	return out
}

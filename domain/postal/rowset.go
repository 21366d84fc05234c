package postal

import "hash/maphash"

// rowSet tells whether a row equal to one of rows (every published field,
// not the position) was added before, without keeping a copy of each row:
// it keeps the position of the first row of each 64-bit hash, and whole
// rows only for the rare rows whose hash an unequal row already has.
type rowSet[T comparable] struct {
	rows  []T
	key   func(T) T // the row without its position
	write func(*maphash.Hash, T)
	first map[uint64]int32
	other map[T]bool
	h     maphash.Hash
}

func newRowSet[T comparable](rows []T, key func(T) T, write func(*maphash.Hash, T)) *rowSet[T] {
	return &rowSet[T]{rows: rows, key: key, write: write, first: make(map[uint64]int32, len(rows))}
}

// add adds rows[i] and reports whether an equal row was added before.
func (s *rowSet[T]) add(i int) (seen bool) {
	s.h.Reset()
	s.write(&s.h, s.rows[i])
	sum := s.h.Sum64()
	j, found := s.first[sum]
	if !found {
		s.first[sum] = int32(i)
		return false
	}
	k := s.key(s.rows[i])
	if s.key(s.rows[j]) == k {
		return true
	}
	if s.other == nil {
		s.other = map[T]bool{}
	}
	seen = s.other[k]
	s.other[k] = true
	return seen
}

// writeStrings feeds fields to h, each terminated so that ("ab", "c") and
// ("a", "bc") differ.
func writeStrings(h *maphash.Hash, fields ...string) {
	for _, f := range fields {
		h.WriteString(f)
		h.WriteByte(0)
	}
}

func rawOfficeKey(o RawOffice) RawOffice { o.Row = 0; return o }

// writeRawOffice hashes the fields that tell most rows apart (rows equal
// in these and not in the others are told apart by rowSet's comparison).
func writeRawOffice(h *maphash.Hash, o RawOffice) {
	writeStrings(h, o.Name, o.Pincode, o.Latitude, o.Longitude)
}

func rawVillageKey(v RawVillage) RawVillage { v.Row = 0; return v }

// writeRawVillage hashes the fields that tell most rows apart, as
// writeRawOffice does.
func writeRawVillage(h *maphash.Hash, v RawVillage) {
	writeStrings(h, v.VillageCode, v.VillageName, v.Pincode)
}

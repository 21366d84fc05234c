package memory

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/pinsight/pinsight/domain/postal"
)

// autocompleteIndex serves postal.AutocompleteQuery over a dataset: a
// sorted array of the offices' and districts' names without spaces (exact
// and prefix matches by binary search), and the sorted vocabulary of their
// words with each word's postings (word matches; fuzzy matches by a walk
// of the vocabulary as a trie under a bounded edit distance). It is built
// once per dataset, beside the other indexes.
type autocompleteIndex struct {
	offices   []postal.PostOffice
	keys      []string // postal.OfficeKey per office
	names     string   // the compact names, end to end
	entries   []acEntry
	districts []acDistrict // district names (LGD and India Post's), ref -1-i in entries and postings
	vocab     []string     // distinct words of office and district names, sorted
	trie      wordTrie     // vocab as a trie, for fuzzy matches
	postStart []int32      // postings of vocab[i]: postings[postStart[i]:postStart[i+1]]
	postings  []acPosting
	base      []uint64     // per office: its rank bits that do not depend on the query
	points    [][2]float32 // per office: latitude, longitude; NaN when unknown
	pins      []postal.Pincode
	byPin     map[postal.Pincode][]int32
}

// acEntry is a compact name in names; ref is an office, or -1-i for
// districts[i].
type acEntry struct {
	off uint32
	n   uint32
	ref int32
}

// acPosting is a word of a name: ref as in acEntry, pos the word's place.
type acPosting struct {
	ref int32
	pos int32
}

// acDistrict is one name of a district and the district's offices.
type acDistrict struct {
	key     string // postal.NameKey of name
	name    string
	offices []int32
}

// Rank bits of a suggestion, low to high (see rankKey).
const (
	acAlphaBits = 20 // order of the office by compact name, then position
	acLenShift  = acAlphaBits
	acDistShift = acLenShift + 7   // name length, capped at 127
	acClassBit  = acDistShift + 26 // distance in units of 100 m, capped
	acFieldBit  = acClassBit + 1
	acEditShift = acFieldBit + 1
	acLevelBits = acEditShift + 2
	acMaxDist   = 1<<26 - 1
)

// newAutocompleteIndex indexes the offices (keys: their postal.OfficeKey),
// the districts with their offices (byDistrict) and the pincodes (pins
// sorted, byPin their offices).
func newAutocompleteIndex(ds *postal.Dataset, keys []string, byDistrict map[int][]int32, pins []postal.Pincode, byPin map[postal.Pincode][]int32) *autocompleteIndex {
	ax := &autocompleteIndex{offices: ds.Offices, keys: keys, pins: pins, byPin: byPin}
	for _, d := range ds.Districts {
		for _, name := range []string{d.Name, d.AltName} {
			if k := postal.NameKey(name); k != "" {
				ax.districts = append(ax.districts, acDistrict{key: k, name: name, offices: byDistrict[d.ID]})
			}
		}
	}
	var wg sync.WaitGroup
	wg.Go(ax.buildVocabulary)
	ax.buildNames()
	ax.buildRanks()
	wg.Wait()
	return ax
}

// buildNames writes the compact names and sorts their entries.
func (ax *autocompleteIndex) buildNames() {
	size := 0
	for _, k := range ax.keys {
		size += len(k)
	}
	for _, d := range ax.districts {
		size += len(d.key)
	}
	buf := make([]byte, 0, size)
	ax.entries = make([]acEntry, 0, len(ax.keys)+len(ax.districts))
	add := func(key string, ref int32) {
		off := len(buf)
		for i := 0; i < len(key); i++ {
			if key[i] != ' ' {
				buf = append(buf, key[i])
			}
		}
		ax.entries = append(ax.entries, acEntry{off: uint32(off), n: uint32(len(buf) - off), ref: ref})
	}
	for i, k := range ax.keys {
		add(k, int32(i))
	}
	for i, d := range ax.districts {
		add(d.key, -1-int32(i))
	}
	ax.names = string(buf)
	type keyed struct {
		prefix uint64 // prefix8 of the name
		e      acEntry
	}
	sorted := make([]keyed, len(ax.entries))
	for i, e := range ax.entries {
		sorted[i] = keyed{prefix8(ax.name(e)), e}
	}
	slices.SortFunc(sorted, func(a, b keyed) int {
		if c := comparePrefixed(a.prefix, b.prefix, ax.name(a.e), ax.name(b.e)); c != 0 {
			return c
		}
		return int(a.e.ref - b.e.ref)
	})
	for i, k := range sorted {
		ax.entries[i] = k.e
	}
}

func (ax *autocompleteIndex) name(e acEntry) string { return ax.names[e.off : e.off+e.n] }

// keyOf is the name key of a ref.
func (ax *autocompleteIndex) keyOf(ref int32) string {
	if ref < 0 {
		return ax.districts[-1-ref].key
	}
	return ax.keys[ref]
}

// buildVocabulary collects the distinct words of the names, sorts them and
// lays out their postings.
func (ax *autocompleteIndex) buildVocabulary() {
	distinct := len(ax.keys) * 3 / 4 // about the distinct words of the real directory
	ids := make(map[string]int32, distinct)
	counts := make([]int32, 0, distinct)
	ax.vocab = make([]string, 0, distinct)
	seq := make([]int32, 0, 3*len(ax.keys)) // the id of every word, in the order of the walk
	for ref := int32(-int32(len(ax.districts))); ref < int32(len(ax.keys)); ref++ {
		forWords(ax.keyOf(ref), func(w string, _ int) {
			id, ok := ids[w]
			if !ok {
				id = int32(len(ax.vocab))
				ids[w] = id
				ax.vocab = append(ax.vocab, w)
				counts = append(counts, 0)
			}
			counts[id]++
			seq = append(seq, id)
		})
	}
	total := len(seq)
	type keyed struct {
		prefix uint64 // prefix8 of the word
		id     int32
	}
	byWord := make([]keyed, len(ax.vocab))
	for i, w := range ax.vocab {
		byWord[i] = keyed{prefix8(w), int32(i)}
	}
	slices.SortFunc(byWord, func(a, b keyed) int {
		return comparePrefixed(a.prefix, b.prefix, ax.vocab[a.id], ax.vocab[b.id])
	})
	order := make([]int32, len(ax.vocab)) // sorted position -> id
	for i, k := range byWord {
		order[i] = k.id
	}
	next := make([]int32, len(ax.vocab)) // id -> next free posting slot
	ax.postStart = make([]int32, len(ax.vocab)+1)
	sorted := make([]string, len(ax.vocab))
	at := int32(0)
	for pos, id := range order {
		sorted[pos] = ax.vocab[id]
		ax.postStart[pos] = at
		next[id] = at
		at += counts[id]
	}
	ax.postStart[len(order)] = at
	ax.vocab = sorted
	ax.postings = make([]acPosting, total)
	k := 0
	for ref := int32(-int32(len(ax.districts))); ref < int32(len(ax.keys)); ref++ {
		forWords(ax.keyOf(ref), func(_ string, pos int) {
			id := seq[k]
			k++
			ax.postings[next[id]] = acPosting{ref: ref, pos: int32(pos)}
			next[id]++
		})
	}
	ax.trie = newWordTrie(ax.vocab)
}

// forWords calls f with each word of a name key and its place.
func forWords(key string, f func(w string, pos int)) {
	pos := 0
	for key != "" {
		w, rest, _ := strings.Cut(key, " ")
		f(w, pos)
		key, pos = rest, pos+1
	}
}

// buildRanks computes each office's query-independent rank bits (class,
// name length, alphabetical order) and its point.
func (ax *autocompleteIndex) buildRanks() {
	ax.base = make([]uint64, len(ax.offices))
	ax.points = make([][2]float32, len(ax.offices))
	alpha := uint64(0)
	for _, e := range ax.entries {
		if e.ref >= 0 {
			ax.base[e.ref] = min(alpha, 1<<acAlphaBits-1) | uint64(min(e.n, 127))<<acLenShift
			alpha++
		}
	}
	nan := float32(math.NaN())
	for i := range ax.offices {
		o := &ax.offices[i]
		ax.base[i] |= uint64(postal.OfficeClass(o.OfficeType)) << acClassBit
		ax.points[i] = [2]float32{nan, nan}
		if o.Location != nil {
			ax.points[i] = [2]float32{float32(o.Location.Latitude), float32(o.Location.Longitude)}
		}
	}
}

// Autocomplete suggests offices for what was typed (see
// postal.ParseAutocomplete), best first: exact, prefix, word, then fuzzy
// matches; at each level fewer edits, name and pincode matches before
// district matches, head and sub offices before branch offices, nearer
// offices first when the query has a point, then shorter names, then by
// name.
func (s *PostalStore) Autocomplete(_ context.Context, q postal.AutocompleteQuery) ([]postal.Suggestion, error) {
	ix, err := s.index()
	if err != nil {
		return nil, err
	}
	return ix.complete.suggest(q), nil
}

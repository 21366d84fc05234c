package memory

import (
	"sort"
	"strings"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// Match levels, in rank order (postal.MatchKind).
const (
	levelExact = iota
	levelPrefix
	levelWord
	levelFuzzy
)

var levelKinds = [...]postal.MatchKind{postal.MatchExact, postal.MatchPrefix, postal.MatchWord, postal.MatchFuzzy}

// maxFuzzyPostings bounds the word occurrences a fuzzy match examines.
const maxFuzzyPostings = 40000

// acHit is a candidate suggestion: its rank key (lower first, unique per
// office), the office and what matched.
type acHit struct {
	key    uint64
	office int32
	src    int32 // -1 - district name index, 0 office name, 1 pincode
	edits  int8
	level  int8
}

// topHits keeps the best hits, one per office, sorted.
type topHits struct {
	hits  [postal.MaxAutocompleteLimit]acHit
	n     int
	limit int
}

func (t *topHits) full() bool { return t.n >= t.limit }

func (t *topHits) offer(h acHit) {
	if t.n == t.limit && h.key >= t.hits[t.n-1].key {
		return
	}
	for i := 0; i < t.n; i++ {
		if t.hits[i].office == h.office {
			if t.hits[i].key <= h.key {
				return
			}
			copy(t.hits[i:], t.hits[i+1:t.n])
			t.n--
			break
		}
	}
	i := t.n
	if i == t.limit {
		i--
	} else {
		t.n++
	}
	for i > 0 && t.hits[i-1].key > h.key {
		t.hits[i] = t.hits[i-1]
		i--
	}
	t.hits[i] = h
}

// acSearch is one query's state.
type acSearch struct {
	ax   *autocompleteIndex
	q    *postal.AutocompleteQuery
	near geo.Point
	top  topHits
}

func (ax *autocompleteIndex) suggest(q postal.AutocompleteQuery) []postal.Suggestion {
	s := acSearch{ax: ax, q: &q}
	s.top.limit = min(max(q.Limit, 1), postal.MaxAutocompleteLimit)
	if q.Near != nil {
		s.near = geo.Point{Lat: q.Near.Latitude, Lon: q.Near.Longitude}
	}
	s.names()
	s.pincodes()
	if !s.top.full() && len(q.Words) > 0 {
		s.words()
	}
	if !s.top.full() && len(q.Words) > 0 {
		s.fuzzy()
	}
	return s.suggestions()
}

// rank is the key of an office's hit.
func (s *acSearch) rank(i int32, level, edits int, district bool) uint64 {
	k := s.ax.base[i] | uint64(level)<<acLevelBits | uint64(edits)<<acEditShift
	if district {
		k |= 1 << acFieldBit
	}
	if s.q.Near != nil {
		d := uint64(acMaxDist)
		if p := s.ax.points[i]; p[0] == p[0] {
			d = min(uint64(geo.DistanceKm(s.near, geo.Point{Lat: float64(p[0]), Lon: float64(p[1])})*10), acMaxDist)
		}
		k |= d << acDistShift
	}
	return k
}

// offerRef offers the office ref, or every office of the district ref.
func (s *acSearch) offerRef(ref int32, level, edits int) {
	if ref >= 0 {
		s.top.offer(acHit{key: s.rank(ref, level, edits, false), office: ref, level: int8(level), edits: int8(edits)})
		return
	}
	for _, i := range s.ax.districts[-1-ref].offices {
		s.top.offer(acHit{key: s.rank(i, level, edits, true), office: i, src: ref, level: int8(level), edits: int8(edits)})
	}
}

// names offers the names equal to or starting with the compact query.
func (s *acSearch) names() {
	c, ax := s.q.Compact, s.ax
	if c == "" {
		return
	}
	lo := sort.Search(len(ax.entries), func(i int) bool { return ax.name(ax.entries[i]) >= c })
	for _, e := range ax.entries[lo:] {
		name := ax.name(e)
		if !strings.HasPrefix(name, c) {
			break
		}
		level := levelPrefix
		if len(name) == len(c) {
			level = levelExact
		}
		s.offerRef(e.ref, level, 0)
	}
}

// pincodes offers the offices of the pincodes starting with the query's
// digits.
func (s *acSearch) pincodes() {
	d, ax := s.q.Digits, s.ax
	if d == "" {
		return
	}
	lo := sort.Search(len(ax.pins), func(i int) bool { return string(ax.pins[i]) >= d })
	for _, pin := range ax.pins[lo:] {
		if !strings.HasPrefix(string(pin), d) {
			break
		}
		level := levelPrefix
		if len(pin) == len(d) {
			level = levelExact
		}
		for _, i := range ax.byPin[pin] {
			s.top.offer(acHit{key: s.rank(i, level, 0, false), office: i, src: 1, level: int8(level)})
		}
	}
}

// words offers the names a later word of which starts the query's words
// without edits.
func (s *acSearch) words() {
	w := s.q.Words
	lo, hi := s.ax.vocabRange(w[0], len(w) == 1)
	s.postings(lo, hi, 0, levelWord, true)
}

// vocabRange is the range of vocabulary words equal to w, or starting with
// it when prefix.
func (ax *autocompleteIndex) vocabRange(w string, prefix bool) (int, int) {
	lo := sort.Search(len(ax.vocab), func(i int) bool { return ax.vocab[i] >= w })
	if !prefix {
		if lo < len(ax.vocab) && ax.vocab[lo] == w {
			return lo, lo + 1
		}
		return lo, lo
	}
	hi := lo + sort.Search(len(ax.vocab)-lo, func(i int) bool { return !strings.HasPrefix(ax.vocab[lo+i], w) })
	return lo, hi
}

// prefixPostings are the postings of the vocabulary words starting with
// prefix: the names (offices, and districts as -1-i) one of whose words
// does, a name once per such word.
func (ax *autocompleteIndex) prefixPostings(prefix string) []acPosting {
	lo, hi := ax.vocabRange(prefix, true)
	return ax.postings[ax.postStart[lo]:ax.postStart[hi]]
}

// postings offers the names holding a vocabulary word of [lo, hi) (at edits
// from the query's first word) followed by the query's other words, each
// within its edit budget (none for the word level); with laterOnly, only
// where the word is not the name's first. It returns how many postings it
// examined.
func (s *acSearch) postings(lo, hi, edits, level int, laterOnly bool) int {
	ax, words := s.ax, s.q.Words
	ps := ax.postings[ax.postStart[lo]:ax.postStart[hi]]
	for _, p := range ps {
		if laterOnly && p.pos == 0 {
			continue
		}
		total := edits
		if len(words) > 1 {
			rest, ok := s.restEdits(ax.keyOf(p.ref), int(p.pos), level == levelFuzzy)
			if !ok {
				continue
			}
			total += rest
		}
		if level == levelFuzzy && total == 0 {
			continue // an exact, prefix or word match, offered before
		}
		s.offerRef(p.ref, level, total)
	}
	return len(ps)
}

// restEdits matches the query's words after the first with the words of
// key after the one at pos: the edits they need, each word within its
// budget when fuzzy (none otherwise), the last as a prefix.
func (s *acSearch) restEdits(key string, pos int, fuzzy bool) (int, bool) {
	for ; pos >= 0; pos-- {
		_, key, _ = strings.Cut(key, " ")
	}
	words, total := s.q.Words[1:], 0
	for j, qw := range words {
		if key == "" {
			return 0, false
		}
		var w string
		w, key, _ = strings.Cut(key, " ")
		budget := 0
		if fuzzy {
			budget = postal.EditBudget(len(qw))
		}
		d := postal.EditDistance(qw, w, budget, j == len(words)-1)
		if d > budget {
			return 0, false
		}
		total += d
	}
	return total, true
}

// suggestions turns the best hits into the answer.
func (s *acSearch) suggestions() []postal.Suggestion {
	out := make([]postal.Suggestion, s.top.n)
	for i, h := range s.top.hits[:s.top.n] {
		o := &s.ax.offices[h.office]
		sg := postal.Suggestion{Office: *o, Field: postal.FieldName, Kind: levelKinds[h.level], Text: o.Name, Edits: int(h.edits), DistanceKm: -1}
		switch {
		case h.src < 0:
			sg.Field, sg.Text = postal.FieldDistrict, s.ax.districts[-1-h.src].name
		case h.src == 1:
			sg.Field, sg.Text = postal.FieldPincode, string(o.Pincode)
		}
		if s.q.Near != nil && o.Location != nil {
			sg.DistanceKm = geo.DistanceKm(s.near, geo.Point{Lat: o.Location.Latitude, Lon: o.Location.Longitude})
		}
		out[i] = sg
	}
	return out
}

package memory

import (
	"slices"
	"sort"

	"github.com/pinsight/pinsight/domain/postal"
)

// maxFuzzyWord is the longest typed word matched with edits; longer ones
// match exactly only.
const maxFuzzyWord = 32

// maxFuzzyRanges bounds the vocabulary ranges a fuzzy walk collects.
const maxFuzzyRanges = 256

// fuzzyRange is a range of vocabulary words at edits from the typed word.
type fuzzyRange struct {
	lo, hi int32
	edits  int8
}

// fuzzyWalk walks the sorted vocabulary as a trie (a node is a range of
// words sharing a prefix), keeping one row of the edit-distance table
// (optimal string alignment) per depth, and collects the words within
// budget edits of the typed word q: whole words, or when prefix any word
// one of whose prefixes is (the typed word may be unfinished). Subtrees
// whose row exceeds the budget everywhere are skipped.
type fuzzyWalk struct {
	vocab  []string
	q      string
	budget uint8
	prefix bool
	rows   [maxFuzzyWord + 4][maxFuzzyWord + 1]uint8
	path   [maxFuzzyWord + 4]byte
	found  [maxFuzzyRanges]fuzzyRange
	n      int
}

func (w *fuzzyWalk) run() {
	for j := 0; j <= len(w.q); j++ {
		w.rows[0][j] = uint8(min(j, int(w.budget)+1))
	}
	w.walk(0, 0, len(w.vocab), w.budget+1)
}

// walk visits the children of the node of depth d spanning vocab[lo:hi];
// accepted is the fewest edits of a range collected above (prefix mode).
// Rows are computed in the band of columns within budget of the diagonal;
// the cells beside it hold budget+1.
func (w *fuzzyWalk) walk(d, lo, hi int, accepted uint8) {
	if d+1 >= len(w.rows) {
		return
	}
	if lo < hi && len(w.vocab[lo]) == d {
		lo++ // the word ending here was judged at its parent
	}
	L, k := len(w.q), int(w.budget)
	i := d + 1
	from, to := max(1, i-k), min(L, i+k)
	if from > to {
		return // deeper than the typed word and its budget
	}
	prev, row := &w.rows[d], &w.rows[i]
	out := uint8(k + 1)
	for lo < hi && w.n < len(w.found) {
		c := w.vocab[lo][d]
		end := w.groupEnd(d, lo, hi, c)
		w.path[d] = c
		row[from-1] = out
		if from == 1 {
			row[0] = uint8(min(i, k+1))
		}
		rowMin := out
		for j := from; j <= to; j++ {
			cost := uint8(1)
			if w.q[j-1] == c {
				cost = 0
			}
			v := min(prev[j]+1, row[j-1]+1, prev[j-1]+cost)
			if d > 0 && j > 1 && w.q[j-1] == w.path[d-1] && w.q[j-2] == c {
				v = min(v, w.rows[d-1][j-2]+1)
			}
			v = min(v, out)
			row[j] = v
			rowMin = min(rowMin, v)
		}
		if to < L {
			row[to+1] = out
		}
		if int(rowMin) <= k {
			dist, acc := out, accepted
			if to == L {
				dist = row[L]
			}
			switch {
			case w.prefix:
				if dist < accepted {
					w.add(lo, end, dist)
					acc = dist
				}
			case len(w.vocab[lo]) == i && int(dist) <= k:
				w.add(lo, lo+1, dist)
			}
			w.walk(i, lo, end, acc)
		}
		lo = end
	}
}

// groupEnd is the end of the words of vocab[lo:hi] whose byte d is c (the
// first's): a galloping search, as most groups are small.
func (w *fuzzyWalk) groupEnd(d, lo, hi int, c byte) int {
	step, at := 1, lo+1
	for at < hi && w.vocab[at][d] == c {
		lo, at = at, at+step
		step *= 2
	}
	at = min(at, hi)
	return lo + 1 + sort.Search(at-lo-1, func(i int) bool { return w.vocab[lo+1+i][d] != c })
}

func (w *fuzzyWalk) add(lo, hi int, edits uint8) {
	if w.n < len(w.found) {
		w.found[w.n] = fuzzyRange{lo: int32(lo), hi: int32(hi), edits: int8(edits)}
		w.n++
	}
}

// fuzzy offers the names whose words match the query's within their edit
// budgets: the first query word by a walk of the vocabulary, the others
// checked on each name found. Ranges are examined fewest edits first,
// within maxFuzzyPostings word occurrences.
func (s *acSearch) fuzzy() {
	first := s.q.Words[0]
	if len(first) > maxFuzzyWord {
		return
	}
	w := &fuzzyWalk{vocab: s.ax.vocab, q: first, budget: uint8(postal.EditBudget(len(first))), prefix: len(s.q.Words) == 1}
	w.run()
	found := w.found[:w.n]
	slices.SortStableFunc(found, func(a, b fuzzyRange) int { return int(a.edits) - int(b.edits) })
	examined := 0
	for _, r := range found {
		if examined >= maxFuzzyPostings {
			break
		}
		examined += s.postings(int(r.lo), int(r.hi), int(r.edits), levelFuzzy, false)
	}
}

package memory

import (
	"slices"

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

// fuzzyWalk walks the vocabulary's trie, keeping one row of the
// edit-distance table (optimal string alignment) per depth, and collects
// the words within budget edits of the typed word q: whole words, or when
// prefix any word one of whose prefixes is (the typed word may be
// unfinished). Subtrees whose row exceeds the budget everywhere are
// skipped.
type fuzzyWalk struct {
	trie   *wordTrie
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
	w.walk(0, 0, w.budget+1)
}

// walk visits the children of the trie node of depth d; accepted is the
// fewest edits of a range collected above (prefix mode). Rows are
// computed in the band of columns within budget of the diagonal; the
// cells beside it hold budget+1.
func (w *fuzzyWalk) walk(d int, node int32, accepted uint8) {
	if d+1 >= len(w.rows) {
		return
	}
	L, k := len(w.q), int(w.budget)
	i := d + 1
	from, to := max(1, i-k), min(L, i+k)
	if from > to {
		return // deeper than the typed word and its budget
	}
	t := w.trie
	prev, row := &w.rows[d], &w.rows[i]
	out := uint8(k + 1)
	for c := node + 1; c < t.skip[node] && w.n < len(w.found); c = t.skip[c] {
		ch := t.label[c]
		w.path[d] = ch
		row[from-1] = out
		if from == 1 {
			row[0] = uint8(min(i, k+1))
		}
		rowMin := out
		for j := from; j <= to; j++ {
			cost := uint8(1)
			if w.q[j-1] == ch {
				cost = 0
			}
			v := min(prev[j]+1, row[j-1]+1, prev[j-1]+cost)
			if d > 0 && j > 1 && w.q[j-1] == w.path[d-1] && w.q[j-2] == ch {
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
					w.add(t.lo[c], t.lo[t.skip[c]], dist)
					acc = dist
				}
			case t.ends(c) && int(dist) <= k:
				w.add(t.lo[c], t.lo[c]+1, dist)
			}
			w.walk(i, c, acc)
		}
	}
}

func (w *fuzzyWalk) add(lo, hi int32, edits uint8) {
	if w.n < len(w.found) {
		w.found[w.n] = fuzzyRange{lo: lo, hi: hi, edits: int8(edits)}
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
	w := &fuzzyWalk{trie: &s.ax.trie, q: first, budget: uint8(postal.EditBudget(len(first))), prefix: len(s.q.Words) == 1}
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

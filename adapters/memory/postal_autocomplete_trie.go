package memory

// wordTrie is the sorted vocabulary as a trie laid out in preorder, for
// the fuzzy walk: node 0 is the root (the empty prefix), a node's children
// follow it, each child's subtree ends where its next sibling starts, and a
// last sentinel node closes the root's subtree. Per node: label is its
// byte, skip the node after its subtree, and lo the vocabulary index of
// the first word in its subtree, so the subtree's words are
// vocab[lo[n]:lo[skip[n]]], and a word ends at n when lo[n+1] > lo[n].
type wordTrie struct {
	label []byte
	skip  []int32
	lo    []int32
}

// newWordTrie lays out the trie of vocab (distinct words, sorted).
func newWordTrie(vocab []string) wordTrie {
	nodes := 1
	prev := ""
	for _, w := range vocab {
		nodes += len(w) - commonPrefix(prev, w)
		prev = w
	}
	t := wordTrie{label: make([]byte, 1, nodes+1), skip: make([]int32, 1, nodes+1), lo: make([]int32, 1, nodes+1)}
	var stack [maxIndexedWord + 1]int32 // stack[d]: the node of depth d on the current path
	depth := 0
	prev = ""
	for i, w := range vocab {
		l := min(commonPrefix(prev, w), maxIndexedWord)
		for ; depth > l; depth-- {
			t.skip[stack[depth]] = int32(len(t.label))
		}
		for d := l; d < min(len(w), maxIndexedWord); d++ {
			depth++
			stack[depth] = int32(len(t.label))
			t.label = append(t.label, w[d])
			t.skip = append(t.skip, 0)
			t.lo = append(t.lo, int32(i))
		}
		prev = w
	}
	for ; depth >= 0; depth-- {
		t.skip[stack[depth]] = int32(len(t.label))
	}
	t.label = append(t.label, 0) // the sentinel
	t.skip = append(t.skip, int32(len(t.label)))
	t.lo = append(t.lo, int32(len(vocab)))
	return t
}

// maxIndexedWord is the deepest the trie goes: longer words share the
// node of their first maxIndexedWord bytes, deeper than any fuzzy walk.
const maxIndexedWord = maxFuzzyWord + 3

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// ends reports whether a word ends at node n.
func (t *wordTrie) ends(n int32) bool { return t.lo[n+1] > t.lo[n] }

package memory

import (
	"slices"
	"strings"
	"testing"
)

// TestWordTrie checks every node of a small vocabulary's trie against the
// words: its subtree holds exactly the words starting with its path, and a
// word ends at it exactly when its path is a word.
func TestWordTrie(t *testing.T) {
	long := strings.Repeat("x", maxIndexedWord)
	vocab := []string{"", "a", "ab", "abc", "abd", "b", "ba", "nagar", "nagpur", long + "a", long + "b"}
	if !slices.IsSorted(vocab) {
		t.Fatal("the vocabulary must be sorted")
	}
	tr := newWordTrie(vocab)
	if got := tr.lo[tr.skip[0]]; int(got) != len(vocab) {
		t.Fatalf("the root's subtree ends at word %d, want %d", got, len(vocab))
	}
	var visit func(n int32, path string)
	nodes := 0
	visit = func(n int32, path string) {
		nodes++
		var want []string
		for _, w := range vocab {
			if strings.HasPrefix(w, path) {
				want = append(want, w)
			}
		}
		if got := vocab[tr.lo[n]:tr.lo[tr.skip[n]]]; n != 0 && !slices.Equal(got, want) {
			t.Errorf("node %q holds %q, want %q", path, got, want)
		}
		if n != 0 && len(path) < maxIndexedWord && tr.ends(n) != slices.Contains(vocab, path) {
			t.Errorf("node %q: ends %v", path, tr.ends(n))
		}
		for c := n + 1; c < tr.skip[n]; c = tr.skip[c] {
			visit(c, path+string(tr.label[c]))
		}
	}
	visit(0, "")
	// a, ab, abc, abd, b, ba, the 8 of nagar and nagpur, the long words'
	// shared maxIndexedWord nodes, and the root.
	if want := 1 + 6 + 8 + maxIndexedWord; nodes != want {
		t.Errorf("%d nodes, want %d", nodes, want)
	}
}

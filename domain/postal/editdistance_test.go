package postal

import "testing"

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b   string
		max    int
		prefix bool
		want   int
	}{
		{"pune", "pune", 2, false, 0},
		{"pnue", "pune", 2, false, 1},           // transposition
		{"bangalroe", "bangalore", 2, false, 1}, // transposition
		{"pune", "puna", 1, false, 1},           // substitution
		{"pun", "pune", 1, false, 1},            // deletion
		{"punee", "pune", 1, false, 1},          // insertion
		{"kolkata", "calcutta", 2, false, 3},    // beyond: max+1
		{"ab", "ba", 1, false, 1},
		{"ca", "abc", 3, false, 3}, // OSA, not full Damerau (2)
		{"", "abc", 5, false, 3},
		{"abc", "", 5, false, 3},
		{"banga", "bangalore", 1, true, 0},
		{"bnaga", "bangalore", 1, true, 1},
		{"bangalor", "bangalore", 2, false, 1},
		{"mumbia", "mumbai central", 1, true, 1},
		{"xyz", "bangalore", 1, true, 2},
	} {
		if got := EditDistance(c.a, c.b, c.max, c.prefix); got != c.want {
			t.Errorf("EditDistance(%q, %q, %d, %v) = %d, want %d", c.a, c.b, c.max, c.prefix, got, c.want)
		}
	}
}

func TestEditBudget(t *testing.T) {
	for n, want := range map[int]int{1: 0, 3: 0, 4: 1, 7: 1, 8: 2, 20: 2} {
		if got := EditBudget(n); got != want {
			t.Errorf("EditBudget(%d) = %d, want %d", n, got, want)
		}
	}
}

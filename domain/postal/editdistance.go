package postal

// maxEditWord is the longest word (in bytes) the edit distances compare;
// longer words only match exactly.
const maxEditWord = 48

// EditBudget is how many edits a typed word of n letters may carry and
// still match: none below 4 letters, one from 4, two from 8.
func EditBudget(n int) int {
	switch {
	case n >= 8:
		return 2
	case n >= 4:
		return 1
	}
	return 0
}

// EditDistance is the optimal string alignment (restricted
// Damerau-Levenshtein) distance between a and b, counting an insertion,
// a deletion, a substitution and a transposition of adjacent bytes as one
// edit each, when it is at most max; otherwise it returns max+1. With
// prefix, b may be cut anywhere: the distance is to b's closest prefix
// (a typed word against the word it begins). It allocates nothing.
func EditDistance(a, b string, max int, prefix bool) int {
	if len(a) > maxEditWord || len(b) > maxEditWord+max {
		if a == b || prefix && len(b) >= len(a) && b[:len(a)] == a {
			return 0
		}
		return max + 1
	}
	// rows over a (columns) for each byte of b (rows); three rows for the
	// transposition.
	var r0, r1, r2 [maxEditWord + 1]uint8
	prev2, prev, cur := r0[:len(a)+1], r1[:len(a)+1], r2[:len(a)+1]
	for j := range prev {
		prev[j] = uint8(j)
	}
	best := int(prev[len(a)])
	if !prefix {
		best = max + 1
	}
	if len(b) == 0 {
		return clampEdits(len(a), max)
	}
	for i := 1; i <= len(b); i++ {
		cur[0] = uint8(i)
		rowMin := cur[0]
		for j := 1; j <= len(a); j++ {
			cost := uint8(1)
			if a[j-1] == b[i-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[j-1] == b[i-2] && a[j-2] == b[i-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if prefix {
			best = min(best, int(cur[len(a)]))
		}
		if int(rowMin) > max {
			break
		}
		prev2, prev, cur = prev, cur, prev2
		if i == len(b) && !prefix {
			best = int(prev[len(a)])
		}
	}
	return clampEdits(best, max)
}

func clampEdits(d, max int) int {
	if d > max {
		return max + 1
	}
	return d
}

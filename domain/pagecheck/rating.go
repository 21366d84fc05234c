package pagecheck

// Rating is the band of a score.
type Rating string

// Ratings, best first.
const (
	Good   Rating = "good"
	Decent Rating = "decent"
	Bad    Rating = "bad"
)

// Band limits: good above goodAbove, decent from decentFrom to goodAbove,
// bad below decentFrom (phpRank's bands).
const (
	goodAbove  = 79
	decentFrom = 49
)

// RatingFor returns the band of an integer score 0-100.
func RatingFor(score int) Rating {
	switch {
	case score > goodAbove:
		return Good
	case score >= decentFrom:
		return Decent
	}
	return Bad
}

// ParseRating accepts "good", "decent" or "bad".
func ParseRating(s string) (Rating, bool) {
	switch r := Rating(s); r {
	case Good, Decent, Bad:
		return r, true
	}
	return "", false
}

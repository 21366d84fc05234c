package site

// Rating is the band of a score.
type Rating string

// Ratings, best first.
const (
	Good   Rating = "good"
	Decent Rating = "decent"
	Bad    Rating = "bad"
)

// Band limits: good above GoodAbove, decent from DecentFrom to GoodAbove,
// bad below DecentFrom (phpRank's bands).
const (
	GoodAbove  = 79
	DecentFrom = 49
)

// RatingFor returns the band of an integer score 0-100.
func RatingFor(score int) Rating {
	switch {
	case score > GoodAbove:
		return Good
	case score >= DecentFrom:
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

package review

import "github.com/pinsight/pinsight/domain/postal"

// Counts is one consistent reading of review counts: the feedback of the
// offices that have a review or a like (every other office has none) and
// the counts versions of pincodes (absent: 0; "" is the global version).
// A version grows with every write to one of its pincode's offices, so of
// two readings of a pincode the one with the larger version is the newer.
type Counts struct {
	Feedback map[Office]postal.Feedback
	Versions map[postal.Pincode]int64
}

package postal

// Feedback is what users said of one office: how many reviews and likes it
// has and the sum of the reviews' ratings. The zero Feedback is an office
// nobody reviewed or liked.
type Feedback struct {
	Reviews   int
	Likes     int
	RatingSum int // sum of the ratings (1-5) of the Reviews reviews
}

// Rating is the average rating, false when there is no review.
func (f Feedback) Rating() (float64, bool) {
	if f.Reviews <= 0 {
		return 0, false
	}
	return float64(f.RatingSum) / float64(f.Reviews), true
}

package site

// Analysis is the outcome of analysing one fetched page.
type Analysis struct {
	URL     string // the final URL, after redirects
	Results Results
	Score   int
	Rating  Rating
}

// checker runs one check over a fetched page.
type checker func(f *Fetched) Check

// checkers lists every check, in report order within each category.
var checkers []checker

// Analyze runs every check over f and scores the results with w.
func Analyze(f *Fetched, w Weights) Analysis {
	res := Results{}
	for _, run := range checkers {
		c := run(f)
		res[c.Category] = append(res[c.Category], c)
	}
	score := res.Score(w)
	return Analysis{URL: f.FinalURL(), Results: res, Score: score, Rating: RatingFor(score)}
}

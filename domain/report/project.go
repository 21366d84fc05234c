package report

import (
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck"
)

// Project summarises one user's reports of one host. It exists while it has
// reports.
type Project struct {
	Name      string           // the host, lower-cased, without a leading "www."
	Reports   int              // how many reports it has
	Score     int              // the average score of its reports, truncated
	Rating    pagecheck.Rating // the band of Score
	CreatedAt time.Time        // the creation time of its oldest report
}

// Summarize builds the project of reports, which all share one project
// name; ok is false when reports is empty.
func Summarize(reports []Report) (p Project, ok bool) {
	if len(reports) == 0 {
		return Project{}, false
	}
	p = Project{Name: reports[0].Project, Reports: len(reports), CreatedAt: reports[0].CreatedAt}
	sum := 0
	for _, r := range reports {
		sum += r.Score
		if r.CreatedAt.Before(p.CreatedAt) {
			p.CreatedAt = r.CreatedAt
		}
	}
	p.Score = sum / len(reports)
	p.Rating = pagecheck.RatingFor(p.Score)
	return p, true
}

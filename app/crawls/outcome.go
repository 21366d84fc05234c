package crawls

import "github.com/pinsight/pinsight/domain/crawl"

// outcome reads, from a finished crawl's recorded pages, whether its start
// URL answered: a crawl whose start URL did not answer says why in its
// failure, and, when no page answered at all, ends failed rather than
// finished with nothing.
type outcome struct {
	start    string // the start URL, normalised as it is recorded
	failure  string // why the start URL did not answer; "" when it did
	answered bool   // some page answered (any status)
}

// add reads one recorded page.
func (o *outcome) add(p crawl.Page) {
	switch {
	case p.Status != 0:
		o.answered = true
	case p.URL == o.start && p.Failure != "":
		o.failure = p.Failure
	}
}

// end is the status and failure a crawl ending as status is stored with.
func (o *outcome) end(status crawl.Status) (crawl.Status, string) {
	if status != crawl.StatusFinished || o.failure == "" {
		return status, ""
	}
	failure := "the start URL " + o.start + " did not answer: " + o.failure
	if !o.answered {
		return crawl.StatusFailed, failure
	}
	return status, failure
}

package crawl

import (
	"slices"
	"strings"

	"github.com/pinsight/pinsight/domain/fault"
)

// Summary is what a crawl found, stored when it ends: its issues counted
// by type, how many pages fail each page check, and how ready the site is
// for AI crawlers.
type Summary struct {
	Issues []TypeCount  // Counts of the crawl's issues
	Checks []CheckCount // one per page check that some page fails, by check id
	AI     []AIAccess   // AIReadiness of the site's robots.txt
	// LLMsTxt is what /llms.txt answered: Found is false when it answered
	// no 2xx; Findings are CheckLLMsTxt's when it did.
	LLMsTxt LLMsTxt
	// Rendering counts a rendered crawl's audited pages by whether a
	// browser rendered them and why (RenderTally); none when the crawl
	// did not render.
	Rendering []RenderCount
}

// CheckCount is how many of a crawl's pages fail one page check.
type CheckCount struct {
	Check   string // the check's id (pagecheck.Check.ID)
	Failing int
}

// CheckCounts lists failing (pages failing each check, by check id) as
// a Summary's Checks: checks no page fails left out, sorted by check id.
func CheckCounts(failing map[string]int) []CheckCount {
	out := make([]CheckCount, 0, len(failing))
	for id, n := range failing {
		if n > 0 {
			out = append(out, CheckCount{Check: id, Failing: n})
		}
	}
	slices.SortFunc(out, func(a, b CheckCount) int { return strings.Compare(a.Check, b.Check) })
	return out
}

// LLMsTxt is the state of a site's /llms.txt.
type LLMsTxt struct {
	Found    bool
	Findings []LLMsFinding
}

// ErrActiveLimit is returned when a user asks for a crawl while as many of
// theirs are queued or running as allowed.
var ErrActiveLimit = fault.New(fault.RateLimited, "crawl: as many of the user's crawls are queued or running as allowed")

// ErrLeaseLost is returned to a crawler renewing its hold on a crawl's
// site that it no longer holds: the crawl ended, or another run took the
// site over once the hold expired. The crawler stops.
var ErrLeaseLost = fault.New(fault.Conflict, "crawl: the crawl's hold on its site was lost")

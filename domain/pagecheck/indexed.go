package pagecheck

import "github.com/pinsight/pinsight/domain/webpage"

// Indexed is a fetched page indexed once (one walk of its document) for
// its follow-ups, its audit and its facts: what FollowUps, Analyse and
// PageFacts give, each of which indexes the page again. A site crawl
// needs all three of every page.
type Indexed struct{ p *page }

// Index indexes f. Fetch what FollowUps names into f (Canonical,
// Alternates) before Analyse: the checks read them from f then.
func Index(f *webpage.Fetched) *Indexed { return &Indexed{p: newPage(f)} }

// FollowUps is FollowUps of the page.
func (x *Indexed) FollowUps() FollowUp { return x.p.followUps() }

// Analyse is Analyse of the page with weights w.
func (x *Indexed) Analyse(w Weights) Analysis { return x.p.analyse(w) }

// Facts is PageFacts of the page.
func (x *Indexed) Facts() Facts { return x.p.facts() }

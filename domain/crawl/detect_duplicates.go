package crawl

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// duplicates finds the indexable pages sharing a title or description
// (groups: the pages by textKey): one issue per page of a group of two or
// more.
func (d *Detector) duplicates(groups map[string][]int32, t IssueType, what string) []Issue {
	var out []Issue
	for _, ids := range groups {
		if len(ids) >= 2 {
			out = append(out, d.duplicateIssues(ids, ids, t, what)...)
		}
	}
	return out
}

// duplicateContent finds the indexable pages whose main text is the same
// as, or nearly the same as (NearlySame), another's. Pages are grouped by
// fingerprint; fingerprints within NearDuplicateBits bits of each other
// are found by the pigeonhole rule: split into NearDuplicateBits+1 blocks
// of 16 bits, two such fingerprints agree on at least one whole block, so
// only fingerprints sharing a block are compared.
func (d *Detector) duplicateContent() []Issue {
	byFP := map[uint64][]int32{}
	for id, r := range d.recs {
		if r.added && r.indexable && r.fingerprint != 0 {
			byFP[r.fingerprint] = append(byFP[r.fingerprint], int32(id))
		}
	}
	fps := make([]uint64, 0, len(byFP))
	for fp := range byFP {
		fps = append(fps, fp)
	}
	slices.Sort(fps)
	near := map[uint64][]uint64{} // fingerprint -> the other fingerprints nearly the same
	buckets := map[[2]uint64][]uint64{}
	for _, fp := range fps {
		for b := range uint64(NearDuplicateBits + 1) {
			key := [2]uint64{b, fp >> (16 * b) & 0xffff}
			for _, other := range buckets[key] {
				if NearlySame(fp, other) && !slices.Contains(near[fp], other) {
					near[fp] = append(near[fp], other)
					near[other] = append(near[other], fp)
				}
			}
			buckets[key] = append(buckets[key], fp)
		}
	}
	var out []Issue
	for _, fp := range fps {
		group := slices.Clone(byFP[fp])
		for _, o := range near[fp] {
			group = append(group, byFP[o]...)
		}
		if len(group) < 2 {
			continue
		}
		all, _ := d.sortedURLs(group)
		detail := "the same as"
		if len(near[fp]) > 0 {
			detail = "the same as, or nearly the same as,"
		}
		for _, id := range byFP[fp] {
			rel, n := others(all, d.urls[id])
			out = append(out, Issue{Type: DuplicateContent, URL: d.urls[id], Related: rel, RelatedTotal: n,
				Detail: fmt.Sprintf("The page's main text is %s that of %s.", detail, plural(n, "other indexable page"))})
		}
	}
	return out
}

// sortedURLs are the URLs of ids, sorted.
func (d *Detector) sortedURLs(ids []int32) ([]string, int) {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = d.urls[id]
	}
	slices.Sort(out)
	return out, len(out)
}

// others are the URLs of all (sorted) but u, at most MaxRelated, and how
// many there are.
func others(all []string, u string) ([]string, int) {
	rel := make([]string, 0, min(len(all)-1, MaxRelated))
	for _, v := range all {
		if len(rel) == MaxRelated {
			break
		}
		if v != u {
			rel = append(rel, v)
		}
	}
	return rel, len(all) - 1
}

// titleDuplicates finds the indexable pages sharing a title. Of the others
// sharing a page's title, those in its language (or when either declares
// none) make it a DuplicateTitle; those in another language, with no
// hreflang link between the two either way, a MissingHreflangForTranslation
// (translations left with the original's title); translations linked by
// hreflang make neither. A group whose pages all share one language is
// compared as duplicates at once; a mixed one by titleGroup.
func (d *Detector) titleDuplicates() []Issue {
	var out []Issue
	for _, ids := range d.titles {
		switch {
		case len(ids) < 2:
		case !d.mixedLanguages(ids):
			out = append(out, d.duplicateIssues(ids, ids, DuplicateTitle, "title")...)
		default:
			out = append(out, d.newTitleGroup(ids).issues()...)
		}
	}
	return out
}

// titleGroup is a group of pages sharing a title in two languages or
// more, arranged so that each page's issues cost about MaxRelated steps
// plus its hreflang links and at most the square root of the group's size,
// never a walk of the whole group per page (a hostile site may give 10,000
// pages one title): the group in URL order, its pages declaring a
// language, each language's pages in URL order, the hreflang links within
// the group as a set, and, for each language with more pages than the
// square root of the group's size (so few of them), the pages of the other
// languages in URL order.
type titleGroup struct {
	d      *Detector
	sorted []int32           // the group by URL
	known  []int32           // its pages declaring a language, by URL
	byLang map[int32][]int32 // language (-1: none) -> its pages by URL
	linked map[[2]int32]bool // {a, b} with a < b: an hreflang link between them, either way
	links  map[int32][]int32 // a page -> the pages of the group it is hreflang-linked with
	others map[int32][]int32 // a large language -> the pages of the other languages, by URL
}

func (d *Detector) newTitleGroup(ids []int32) *titleGroup {
	g := &titleGroup{d: d, sorted: slices.Clone(ids), byLang: map[int32][]int32{}, linked: map[[2]int32]bool{},
		links: map[int32][]int32{}, others: map[int32][]int32{}}
	slices.SortFunc(g.sorted, func(a, b int32) int { return strings.Compare(d.urls[a], d.urls[b]) })
	in := make(map[int32]bool, len(ids))
	for _, id := range g.sorted {
		in[id] = true
		l := d.recs[id].lang
		g.byLang[l] = append(g.byLang[l], id)
		if l >= 0 {
			g.known = append(g.known, id)
		}
	}
	for _, id := range g.sorted {
		for _, h := range d.recs[id].hreflang {
			if !in[h] || h == id {
				continue
			}
			k := [2]int32{min(id, h), max(id, h)}
			if !g.linked[k] {
				g.linked[k] = true
				g.links[id] = append(g.links[id], h)
				g.links[h] = append(g.links[h], id)
			}
		}
	}
	large := int(math.Sqrt(float64(len(ids)))) + 1
	for l, members := range g.byLang {
		if l >= 0 && len(members) > large {
			var rest []int32
			for _, id := range g.known {
				if d.recs[id].lang != l {
					rest = append(rest, id)
				}
			}
			g.others[l] = rest
		}
	}
	return g
}

// issues are the group's issues, by page.
func (g *titleGroup) issues() []Issue {
	var out []Issue
	unknown := g.byLang[-1]
	for _, id := range g.sorted {
		u, l := g.d.urls[id], g.d.recs[id].lang
		if l < 0 { // in no language: the same as every other page
			rel, _ := others(g.urlsOf(g.sorted, MaxRelated+1), u)
			out = append(out, duplicateIssue(DuplicateTitle, u, "title", rel, len(g.sorted)-1))
			continue
		}
		if same := len(g.byLang[l]) + len(unknown) - 1; same > 0 {
			rel, _ := others(g.urlsOf(mergeSorted(g.d, g.byLang[l], unknown, MaxRelated+1), MaxRelated+1), u)
			out = append(out, duplicateIssue(DuplicateTitle, u, "title", rel, same))
		}
		linkedOther := 0
		for _, o := range g.links[id] {
			if ol := g.d.recs[o].lang; ol >= 0 && ol != l {
				linkedOther++
			}
		}
		total := len(g.sorted) - len(g.byLang[l]) - len(unknown) - linkedOther
		if total <= 0 {
			continue
		}
		candidates := g.others[l]
		if candidates == nil {
			candidates = g.known // a small language: its few pages are skipped on the way
		}
		rel := make([]string, 0, min(total, MaxRelated))
		for _, o := range candidates {
			if len(rel) == MaxRelated {
				break
			}
			if ol := g.d.recs[o].lang; ol >= 0 && ol != l && !g.linked[[2]int32{min(id, o), max(id, o)}] {
				rel = append(rel, g.d.urls[o])
			}
		}
		out = append(out, Issue{Type: MissingHreflangForTranslation, URL: u, Related: rel, RelatedTotal: total,
			Detail: fmt.Sprintf("The page's title is the same as that of %s in another language, with no hreflang link between them.",
				plural(total, "indexable page"))})
	}
	return out
}

// urlsOf are the URLs of the first n of ids.
func (g *titleGroup) urlsOf(ids []int32, n int) []string {
	out := make([]string, 0, min(n, len(ids)))
	for _, id := range ids[:min(n, len(ids))] {
		out = append(out, g.d.urls[id])
	}
	return out
}

// mergeSorted is the first n of a and b (each in URL order), in URL order.
func mergeSorted(d *Detector, a, b []int32, n int) []int32 {
	out := make([]int32, 0, min(n, len(a)+len(b)))
	for len(out) < n && (len(a) > 0 || len(b) > 0) {
		if len(b) == 0 || len(a) > 0 && d.urls[a[0]] < d.urls[b[0]] {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return out
}

// duplicateIssues are the issues of type t of the pages ids, each sharing
// its what with the other pages of group (ids among them).
func (d *Detector) duplicateIssues(ids, group []int32, t IssueType, what string) []Issue {
	all, _ := d.sortedURLs(group)
	out := make([]Issue, 0, len(ids))
	for _, id := range ids {
		rel, n := others(all, d.urls[id])
		out = append(out, duplicateIssue(t, d.urls[id], what, rel, n))
	}
	return out
}

// duplicateIssue is the issue of type t of the page at u, whose what is
// the same as that of total other pages (rel: the first of them).
func duplicateIssue(t IssueType, u, what string, rel []string, total int) Issue {
	return Issue{Type: t, URL: u, Related: rel, RelatedTotal: total,
		Detail: fmt.Sprintf("The page's %s is the same as that of %s.", what, plural(total, "other indexable page"))}
}

// mixedLanguages reports whether pages ids declare two languages or more.
func (d *Detector) mixedLanguages(ids []int32) bool {
	first := int32(-1)
	for _, id := range ids {
		if l := d.recs[id].lang; l >= 0 {
			if first >= 0 && l != first {
				return true
			}
			first = l
		}
	}
	return false
}

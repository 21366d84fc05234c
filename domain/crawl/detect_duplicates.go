package crawl

import (
	"fmt"
	"slices"
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
// compared as duplicates at once.
func (d *Detector) titleDuplicates() []Issue {
	var out []Issue
	for _, ids := range d.titles {
		if len(ids) < 2 {
			continue
		}
		if !d.mixedLanguages(ids) {
			out = append(out, d.duplicateIssues(ids, ids, DuplicateTitle, "title")...)
			continue
		}
		for _, id := range ids {
			var same, translations []int32
			for _, o := range ids {
				switch {
				case o == id:
					same = append(same, o) // others leaves the page itself out
				case d.sameLanguage(id, o):
					same = append(same, o)
				case !d.hreflangBetween(id, o):
					translations = append(translations, o)
				}
			}
			if len(same) > 1 {
				out = append(out, d.duplicateIssues([]int32{id}, same, DuplicateTitle, "title")...)
			}
			if len(translations) > 0 {
				all, _ := d.sortedURLs(translations)
				rel, _ := others(all, d.urls[id]) // all holds no d.urls[id]
				out = append(out, Issue{Type: MissingHreflangForTranslation, URL: d.urls[id], Related: rel, RelatedTotal: len(translations),
					Detail: fmt.Sprintf("The page's title is the same as that of %s in another language, with no hreflang link between them.",
						plural(len(translations), "indexable page"))})
			}
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
		out = append(out, Issue{Type: t, URL: d.urls[id], Related: rel, RelatedTotal: n,
			Detail: fmt.Sprintf("The page's %s is the same as that of %s.", what, plural(n, "other indexable page"))})
	}
	return out
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

// sameLanguage reports whether pages a and b are in one language, or
// either declares none (then they cannot be told apart).
func (d *Detector) sameLanguage(a, b int32) bool {
	la, lb := d.recs[a].lang, d.recs[b].lang
	return la < 0 || lb < 0 || la == lb
}

// hreflangBetween reports whether page a names b among its hreflang
// alternates, or b names a.
func (d *Detector) hreflangBetween(a, b int32) bool {
	return slices.Contains(d.recs[a].hreflang, b) || slices.Contains(d.recs[b].hreflang, a)
}

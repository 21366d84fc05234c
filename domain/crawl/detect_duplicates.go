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
		if len(ids) < 2 {
			continue
		}
		all, _ := d.sortedURLs(ids)
		for _, id := range ids {
			rel, n := others(all, d.urls[id])
			out = append(out, Issue{Type: t, URL: d.urls[id], Related: rel, RelatedTotal: n,
				Detail: fmt.Sprintf("The page's %s is the same as that of %s.", what, plural(n, "other indexable page"))})
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

package postal

import (
	"errors"
	"sort"
	"strconv"
	"strings"
)

// Resolve finds the one item a reference names: an integer id, else an
// exact name (case- and punctuation-insensitive; several exact matches are
// ambiguous), else a unique name prefix. names gives each item's names (its
// name, then alternative spellings). field names the input in errors;
// cand describes an item as a candidate of an ambiguous reference.
func Resolve[T any](ref, field string, items []T, id func(T) int, names func(T) []string, cand func(T) Candidate) (T, error) {
	var zero T
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return zero, Invalid(field, "is required")
	}
	if n, err := strconv.Atoi(ref); err == nil {
		for _, it := range items {
			if id(it) == n {
				return it, nil
			}
		}
		return zero, &NotFoundError{What: field + " " + ref}
	}
	key := NameKey(ref)
	var exact, prefix []T
	for _, it := range items {
		for _, n := range names(it) {
			if n == "" {
				continue
			}
			k := NameKey(n)
			if k == key {
				exact = append(exact, it)
				break
			}
			if strings.HasPrefix(k, key) {
				prefix = append(prefix, it)
				break
			}
		}
	}
	for _, set := range [][]T{exact, prefix} {
		switch {
		case len(set) == 1:
			return set[0], nil
		case len(set) > 1:
			cands := make([]Candidate, len(set))
			for i, it := range set {
				cands[i] = cand(it)
			}
			sort.Slice(cands, func(i, j int) bool { return cands[i].Label() < cands[j].Label() })
			return zero, &AmbiguousError{Field: field, Input: ref, Candidates: cands}
		}
	}
	return zero, &NotFoundError{What: field + " " + strconv.Quote(ref)}
}

// ResolveState resolves a state reference among states (see Resolve). A
// leading "The" that matches nothing is ignored, as in the import: India
// Post writes "THE DADRA AND NAGAR HAVELI AND DAMAN AND DIU", LGD does not.
func ResolveState(ref string, states []StateSummary) (StateSummary, error) {
	resolve := func(ref string) (StateSummary, error) {
		return Resolve(ref, "state", states,
			func(s StateSummary) int { return s.ID },
			func(s StateSummary) []string { return []string{s.Name} },
			func(s StateSummary) Candidate { return Candidate{ID: s.ID, Name: s.Name} })
	}
	s, err := resolve(ref)
	if rest, found := strings.CutPrefix(NameKey(ref), "the "); found && errors.Is(err, ErrNotFound) {
		if s, err2 := resolve(rest); err2 == nil {
			return s, nil
		}
	}
	return s, err
}

// ResolveDistrict resolves a district reference among districts; India
// Post's spelling counts as a name too.
func ResolveDistrict(ref string, districts []DistrictSummary) (DistrictSummary, error) {
	return Resolve(ref, "district", districts,
		func(d DistrictSummary) int { return d.ID },
		func(d DistrictSummary) []string { return []string{d.Name, d.AltName} },
		func(d DistrictSummary) Candidate { return Candidate{ID: d.ID, Name: d.Name, State: d.StateName} })
}

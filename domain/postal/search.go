package postal

import "strings"

// Search ranks, best first.
const (
	RankExact  = 0 // the whole name (or pincode) equals the query
	RankPrefix = 1 // the name starts with the query
	RankWord   = 2 // every query word starts a word of the name
)

// MatchRank tells how a candidate key (NameKey or OfficeKey form) matches a
// query key, and whether it matches at all.
func MatchRank(candidate, query string) (int, bool) {
	switch {
	case query == "":
		return 0, false
	case candidate == query:
		return RankExact, true
	case strings.HasPrefix(candidate, query):
		return RankPrefix, true
	case wordsMatch(candidate, query):
		return RankWord, true
	}
	return 0, false
}

// NameMatches reports whether a name key (NameKey form) matches a query key
// as a list filter does: every name when the query is empty, else as
// MatchRank (the whole name, its start, or every query word starting a
// word of the name).
func NameMatches(name, query string) bool {
	if query == "" {
		return true
	}
	_, ok := MatchRank(name, query)
	return ok
}

// DistrictMatches reports whether d's name or India Post spelling matches
// a query key as NameMatches.
func DistrictMatches(d DistrictSummary, query string) bool {
	return NameMatches(NameKey(d.Name), query) || d.AltName != "" && NameMatches(NameKey(d.AltName), query)
}

// wordsMatch reports whether every word of query is a prefix of some word of
// candidate.
func wordsMatch(candidate, query string) bool {
	cw := strings.Fields(candidate)
	for _, q := range strings.Fields(query) {
		found := false
		for _, c := range cw {
			if strings.HasPrefix(c, q) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// SearchQuery is a normalised search: the key to match names with, and the
// digits when the query is a pincode or pincode prefix.
type SearchQuery struct {
	Key    string
	Digits string
}

// MaxQueryLen bounds search queries.
const MaxQueryLen = 100

// ParseQuery validates and normalises a search query (field "q").
func ParseQuery(q string) (SearchQuery, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return SearchQuery{}, Invalid("q", "is required")
	}
	if len([]rune(q)) > MaxQueryLen {
		return SearchQuery{}, Invalid("q", "must be at most 100 characters")
	}
	sq := SearchQuery{Key: OfficeKey(q)}
	if isDigits(q) {
		if len(q) > 6 || q[0] == '0' {
			return SearchQuery{}, Invalid("q", "a pincode or pincode prefix has 1 to 6 digits, the first not 0")
		}
		sq.Digits = q
	}
	if sq.Key == "" {
		return SearchQuery{}, Invalid("q", "must contain letters or digits")
	}
	return sq, nil
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// OfficeRank orders an office for a query (lower first): exact, then
// prefix, then word matches; at each level a match on the pincode or the
// office name comes before a match on the district's name. districtKeys
// are the NameKey forms of the district's LGD name and of India Post's
// spelling when it differs (either may match).
func OfficeRank(o *PostOffice, officeKey string, districtKeys []string, q SearchQuery) (int, bool) {
	best := -1
	take := func(r int) {
		if best < 0 || r < best {
			best = r
		}
	}
	if q.Digits != "" && strings.HasPrefix(string(o.Pincode), q.Digits) {
		if string(o.Pincode) == q.Digits {
			take(2 * RankExact)
		} else {
			take(2 * RankPrefix)
		}
	}
	if r, ok := MatchRank(officeKey, q.Key); ok {
		take(2 * r)
	}
	for _, k := range districtKeys {
		if r, ok := MatchRank(k, q.Key); ok {
			take(2*r + 1)
		}
	}
	return best, best >= 0
}

// OfficeHit is an office matched by a search, with what orders it. Every
// store sorts its hits with Less, so they all answer in the same order.
type OfficeHit struct {
	Rank    int     // from OfficeRank
	Pincode Pincode // then by pincode
	Key     string  // then by OfficeKey of the name
	ID      int64   // then by id
}

// Less orders hits: rank, pincode, name key, id.
func (a OfficeHit) Less(b OfficeHit) bool {
	switch {
	case a.Rank != b.Rank:
		return a.Rank < b.Rank
	case a.Pincode != b.Pincode:
		return a.Pincode < b.Pincode
	case a.Key != b.Key:
		return a.Key < b.Key
	}
	return a.ID < b.ID
}

// VillageHit is a village matched by a search, with what orders it.
type VillageHit struct {
	Rank int    // from MatchRank
	Key  string // then by NameKey of the name
	Code string // then by LGD village code
	Pos  int    // then by position in the dataset (a village served by several PINs)
}

// Less orders hits: rank, name key, code, dataset position.
func (a VillageHit) Less(b VillageHit) bool {
	switch {
	case a.Rank != b.Rank:
		return a.Rank < b.Rank
	case a.Key != b.Key:
		return a.Key < b.Key
	case a.Code != b.Code:
		return a.Code < b.Code
	}
	return a.Pos < b.Pos
}

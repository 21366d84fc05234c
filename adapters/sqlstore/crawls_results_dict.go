package sqlstore

import (
	_ "embed"

	"github.com/klauspost/compress/s2"
)

//go:generate go test -run TestAuditDictionaryFromTheFixtureCrawl -update

// auditDict1 is the first S2 dictionary of stored audits (s2.Dict.Bytes:
// the varint of its first repeat offset, then 27 KB of text). `go
// generate` (TestAuditDictionaryFromTheFixtureCrawl -update) made it from
// the fixture site (tests/crawlsite, 2,000 pages): the crawler found its
// 1,959 audited pages, each was fetched and audited again at a fixed time
// and load time, with the site's loopback host written www.example.com;
// of their distinct checks' JSON, at most four per check id, outcome and
// errors, the most frequent ones (ties in byte order), each followed by a
// comma, the most frequent last (nearest the audit, where S2's offsets
// are shortest). Run again on the same tree, it writes the same bytes.
//
// It is frozen: stored audits name it by its marker, so a change to
// pagecheck's texts leaves it as it is (audits then compress a little
// less). A new dictionary gets the next marker and a file of its own,
// empty until go generate fills it, made auditDictMarker; this one stays
// for the audits stored with it.
//
//go:embed crawls_results_dict1.s2dict
var auditDict1 []byte

// auditDicts are the S2 dictionaries of stored audits by their markers;
// auditDict (marker auditDictMarker) compresses the audits stored now.
var (
	auditDicts = map[string]*s2.Dict{
		"d1": s2.NewDict(auditDict1),
	}
	auditDict = auditDicts[auditDictMarker]
)

// auditDictMarker names the dictionary of the audits stored now.
const auditDictMarker = "d1"

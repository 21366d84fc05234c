package sqlstore

import (
	_ "embed"

	"github.com/klauspost/compress/s2"
)

//go:generate go test -run TestAuditDictionaryFromTheFixtureCrawl -update

// auditDict1 is the first S2 dictionary of stored audits (s2.Dict.Bytes:
// the varint of its first repeat offset, then up to 64 KiB of text): the
// checks of the fixture site's crawl (tests/crawlsite, 2,000 pages)
// with the site's host written www.example.com, each distinct
// check's JSON once, the most frequent first and at most a few per check
// id, outcome and errors, laid out so that the most frequent lie nearest
// the audit (at the end). TestAuditDictionaryFromTheFixtureCrawl with
// -update (go generate) wrote it.
//
// It is frozen: stored audits name it by its marker, so a change to
// pagecheck's texts leaves it as it is (audits then compress a little
// less); a better one is added as a new file with the next marker, kept
// beside this one for the audits already stored, and made auditDict.
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

package sqlstore

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/pinsight/pinsight/domain/pagecheck"
)

// readDictSample is the audit and stored form of dictSampleFile(marker).
func readDictSample(tb testing.TB, marker string) (pagecheck.Results, dictSample) {
	tb.Helper()
	b, err := os.ReadFile(dictSampleFile(marker))
	if err != nil {
		tb.Fatal(err)
	}
	var s dictSample
	if err := json.Unmarshal(b, &s); err != nil {
		tb.Fatal(err)
	}
	var res pagecheck.Results
	if err := json.Unmarshal(s.Audit, &res); err != nil {
		tb.Fatal(err)
	}
	return res, s
}

// Every dictionary decodes the audit stored with it when it was made (a
// changed or lost dictionary would lose every audit stored with it), and
// the dictionary in use compresses an audit of the fixture crawl to under
// a tenth of its JSON.
func TestAuditDictionaryDecodes(t *testing.T) {
	for marker, d := range auditDicts {
		if d == nil {
			t.Errorf("dictionary %s does not load", marker)
			continue
		}
		want, s := readDictSample(t, marker)
		var got pagecheck.Results
		if err := decodeResults(string(s.Stored), &got); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("dictionary %s: decodeResults(the sample's stored form) = %d categories, %v; want the sample's audit", marker, len(got), err)
		}
	}
	res, s := readDictSample(t, auditDictMarker)
	stored, err := encodeResults(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) > len(s.Audit)/10 {
		t.Errorf("stored %d bytes for %d bytes of JSON; want under a tenth", len(stored), len(s.Audit))
	}
}

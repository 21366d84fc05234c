package sqlstore

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/s2"

	"github.com/pinsight/pinsight/domain/pagecheck"
)

func sampleAudit() pagecheck.Results {
	return pagecheck.Results{
		pagecheck.SEO: {
			{ID: "title", Title: "Title", Category: pagecheck.SEO, Importance: pagecheck.High, Passed: true, Value: "Hello", Message: "ok"},
			{ID: "headings", Title: "Headings", Category: pagecheck.SEO, Importance: pagecheck.Medium, Value: map[string]any{"h1": float64(2)}, Errors: []string{"too_many"}},
		},
	}
}

// A page's audit survives its stored form, which is much smaller than
// the JSON and names its dictionary; what was written before (the plain
// JSON, the JSON string of base64 of S2, with or without a dictionary)
// still reads.
func TestResultsEncoding(t *testing.T) {
	res := sampleAudit()
	for range 40 { // a page's worth of checks
		res[pagecheck.Miscellaneous] = append(res[pagecheck.Miscellaneous], pagecheck.Check{ID: "structured_data", Title: "Structured data",
			Category: pagecheck.Miscellaneous, Importance: pagecheck.Medium, Errors: []string{"missing"},
			Message: "The page has no structured data (Open Graph, Twitter cards, JSON-LD or microdata)."})
	}
	stored, err := encodeResults(res)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	if len(stored) > len(raw)/10 || !bytes.HasPrefix(stored, []byte(auditDictMarker+":")) {
		t.Errorf("stored %.8q… %d bytes for %d bytes of JSON; want under a tenth, after %s:", stored, len(stored), len(raw), auditDictMarker)
	}
	var got pagecheck.Results
	if err := decodeResults(string(stored), &got); err != nil || !reflect.DeepEqual(got, res) {
		t.Errorf("decodeResults(encodeResults) = %v, %v; want the audit back", len(got), err)
	}
	packed := stored[len(auditDictMarker)+1:]
	withDict := strconv.Quote(auditDictMarker + ":" + base64.StdEncoding.EncodeToString(packed))
	noDict := strconv.Quote(base64.StdEncoding.EncodeToString(s2.Encode(nil, raw)))
	for name, old := range map[string]string{
		"plain JSON": string(raw), "S2 without a dictionary": noDict, "S2 with a dictionary": withDict,
		"with an escape": strings.Replace(withDict, ":", `\u003a`, 1), "spaced": " " + noDict + "\n",
	} {
		var got pagecheck.Results
		if err := decodeResults(old, &got); err != nil || !reflect.DeepEqual(got, res) {
			t.Errorf("decodeResults(%s) = %v, %v; want the audit", name, len(got), err)
		}
	}
	for _, bad := range []string{`"not base64!"`, `"` + strings.Repeat("QUFB", 4) + `"`, `{`, `"d0:QUFB"`, `"d1:QUFB"`,
		"d0:" + string(packed), "d1:" + string(packed[:len(packed)/2]), "d1", ""} {
		if err := decodeResults(bad, &got); err == nil {
			t.Errorf("decodeResults(%.12q) = nil, want an error", bad)
		}
	}
}

// Encoding reuses its buffers: an audit's stored form stays as it was
// when others are encoded after it, and equals a fresh encoding's.
func TestResultsEncodingReusesNothingStored(t *testing.T) {
	first, err := encodeResults(sampleAudit())
	if err != nil {
		t.Fatal(err)
	}
	kept := bytes.Clone(first)
	other := sampleAudit()
	other[pagecheck.SEO][0].Value = strings.Repeat("another title ", 50)
	for range 3 {
		if _, err := encodeResults(other); err != nil {
			t.Fatal(err)
		}
	}
	again, _ := encodeResults(sampleAudit())
	if !bytes.Equal(first, kept) || !bytes.Equal(again, kept) {
		t.Errorf("stored form changed: %q, then %q; want %q", first, again, kept)
	}
	var got pagecheck.Results
	if err := decodeResults(string(first), &got); err != nil || !reflect.DeepEqual(got, sampleAudit()) {
		t.Errorf("decodeResults = %v, %v; want the audit back", got, err)
	}
}

// An audit longer than a dictionary's reach (64 KiB) survives too.
func TestResultsEncodingLong(t *testing.T) {
	res := sampleAudit()
	for i := range 3000 {
		res[pagecheck.SEO] = append(res[pagecheck.SEO], pagecheck.Check{ID: "broken_links", Title: "Broken links",
			Category: pagecheck.SEO, Importance: pagecheck.High, Offending: []string{"https://example.com/page/" + strconv.Itoa(i*7919)}})
	}
	stored, err := encodeResults(res)
	if err != nil {
		t.Fatal(err)
	}
	var got pagecheck.Results
	if err := decodeResults(string(stored), &got); err != nil || !reflect.DeepEqual(got, res) {
		t.Errorf("decodeResults(encodeResults) of %d bytes = %v, %v; want the audit back", len(stored), len(got), err)
	}
}

// BenchmarkResultsEncoding encodes and decodes an audit of the fixture
// crawl (the dictionary's sample), reporting the stored bytes.
func BenchmarkResultsEncoding(b *testing.B) {
	res, _ := readDictSample(b, auditDictMarker)
	stored, err := encodeResults(res)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := encodeResults(res); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(stored)), "stored-B")
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var got pagecheck.Results
			if err := decodeResults(string(stored), &got); err != nil {
				b.Fatal(err)
			}
		}
	})
}

package sqlstore

import (
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

// A page's audit survives its stored form, which is a JSON string much
// smaller than the JSON, naming its dictionary; what was written before
// (the plain JSON, the base64 of S2 without a dictionary) still reads.
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
	var s string
	if err := json.Unmarshal([]byte(stored), &s); err != nil || len(stored) > len(raw)/2 || !strings.HasPrefix(s, auditDictMarker+":") {
		t.Errorf("stored %.20s… %d bytes (a JSON string: %v) for %d bytes of JSON; want a JSON string under half, after %s:", stored, len(stored), err, len(raw), auditDictMarker)
	}
	var got pagecheck.Results
	if err := decodeResults(stored, &got); err != nil || !reflect.DeepEqual(got, res) {
		t.Errorf("decodeResults(encodeResults) = %v, %v; want the audit back", len(got), err)
	}
	var plain pagecheck.Results
	if err := decodeResults(string(raw), &plain); err != nil || !reflect.DeepEqual(plain, res) {
		t.Errorf("decodeResults(plain JSON) = %v, %v; want the audit", len(plain), err)
	}
	noDict := strconv.Quote(base64.StdEncoding.EncodeToString(s2.Encode(nil, raw)))
	escaped := strings.Replace(stored, ":", `\u003a`, 1)
	for name, old := range map[string]string{"S2 without a dictionary": noDict, "with an escape": escaped, "spaced": " " + stored + "\n"} {
		var got pagecheck.Results
		if err := decodeResults(old, &got); err != nil || !reflect.DeepEqual(got, res) {
			t.Errorf("decodeResults(%s) = %v, %v; want the audit", name, len(got), err)
		}
	}
	for _, bad := range []string{`"not base64!"`, `"` + strings.Repeat("QUFB", 4) + `"`, `{`, `"d0:` + s[3:] + `"`, `"d1:QUFB"`, `"d1` + s[3:]} {
		if err := decodeResults(bad, &plain); err == nil {
			t.Errorf("decodeResults(%s) = nil, want an error", bad)
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
	kept := strings.Clone(first)
	other := sampleAudit()
	other[pagecheck.SEO][0].Value = strings.Repeat("another title ", 50)
	for range 3 {
		if _, err := encodeResults(other); err != nil {
			t.Fatal(err)
		}
	}
	again, _ := encodeResults(sampleAudit())
	if first != kept || again != kept {
		t.Errorf("stored form changed: %q, then %q; want %q", first, again, kept)
	}
	var got pagecheck.Results
	if err := decodeResults(first, &got); err != nil || !reflect.DeepEqual(got, sampleAudit()) {
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
	if err := decodeResults(stored, &got); err != nil || !reflect.DeepEqual(got, res) {
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
			if err := decodeResults(stored, &got); err != nil {
				b.Fatal(err)
			}
		}
	})
}

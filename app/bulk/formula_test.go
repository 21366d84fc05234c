package bulk_test

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/app/bulk"
)

// TestCSVAnswersNeutraliseFormulas: input cells a CSV answer echoes are
// written as text when a spreadsheet would read them as a formula (a
// single quote in front), and numbers stay numbers (a negative longitude
// is not quoted). JSON Lines answers are left as they are.
func TestCSVAnswersNeutraliseFormulas(t *testing.T) {
	in := "pincode\n\"=cmd|' /C calc'!A0\"\n\"+HYPERLINK(\"\"http://evil.test\"\")\"\n@SUM(A1:A9)\n-2+3\n\"\t=1\"\n800001\n"
	out, _, err := pincodes(t, bulk.CSV, in, bulk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("answer %q: %v", out, err)
	}
	want := []string{"pincode", `'=cmd|' /C calc'!A0`, `'+HYPERLINK("http://evil.test")`, "'@SUM(A1:A9)", "'-2+3", "'=1", "800001"} // "\t=1" trimmed as pincodes are
	if len(recs) != len(want) {
		t.Fatalf("answer has %d records, want %d:\n%s", len(recs), len(want), out)
	}
	for i, r := range recs {
		if r[1] != want[i] {
			t.Errorf("row %d pincode cell %q, want %q", i, r[1], want[i])
		}
	}

	out, _, err = digipins(t, bulk.CSV, "latitude,longitude\n28.622788,=1+1\n-12.5,-77\n", bulk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want2 := "line,latitude,longitude,digipin,error\n" +
		"2,28.622788,'=1+1,,\"longitude must be a number, e.g. 28.6139\"\n" +
		"3,-12.5,-77,,latitude must be a finite number from 2.5 to 38.5\n"
	if out != want2 {
		t.Errorf("digipin answer:\n%s\nwant:\n%s", out, want2)
	}

	out, _, err = pincodes(t, bulk.JSONLines, `{"pincode":"=1+1"}`+"\n", bulk.Options{})
	if err != nil || !strings.Contains(out, `"pincode":"=1+1"`) {
		t.Errorf("JSON Lines answer %q (%v), want the cell as it was", out, err)
	}
}

package csvcell_test

import (
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/csvcell"
)

func TestSafe(t *testing.T) {
	for in, want := range map[string]string{
		// Formulas and what starts one become text.
		`=cmd|' /C calc'!A0`:             `'=cmd|' /C calc'!A0`,
		`+HYPERLINK("http://evil.test")`: `'+HYPERLINK("http://evil.test")`,
		`-2+3`:                           `'-2+3`,
		`@SUM(A1:A9)`:                    `'@SUM(A1:A9)`,
		"\t=1+1":                         "'\t=1+1",
		"\r=1+1":                         "'\r=1+1",
		"=":                              "'=",
		"-":                              "'-",
		"+":                              "'+",
		"-1e":                            "'-1e",
		"-1.2.3":                         "'-1.2.3",
		"- 12":                           "'- 12",
		"-12 ":                           "'-12 ",
		"-Inf":                           "'-Inf",
		"-NaN":                           "'-NaN",
		"-0x1F":                          "'-0x1F",
		"-1,000":                         "'-1,000",
		"--1":                            "'--1",
		"-.":                             "'-.",
		// Numbers stay numbers.
		"-12.5":   "-12.5",
		"+12.5":   "+12.5",
		"-77":     "-77",
		"-.5":     "-.5",
		"-5.":     "-5.",
		"-1e5":    "-1e5",
		"+2.5E-3": "+2.5E-3",
		// Anything else is as it was.
		"":                    "",
		"12":                  "12",
		"Home page":           "Home page",
		"https://site.test/a": "https://site.test/a",
		" =1+1":               " =1+1",
		"a=b":                 "a=b",
		"'=1":                 "'=1",
		"डाकघर":               "डाकघर",
	} {
		if got := csvcell.Safe(in); got != want {
			t.Errorf("Safe(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNumber(t *testing.T) {
	for _, s := range []string{"0", "7", "-12.5", "+1", ".5", "5.", "1e9", "1E+9", "-1e-9", "28.622788"} {
		if !csvcell.Number(s) {
			t.Errorf("Number(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"", "+", "-", ".", "e5", "1e", "1e+", "1.2.3", " 1", "1 ", "1_000", "0x10", "Inf", "NaN", "1,5", "١٢"} {
		if csvcell.Number(s) {
			t.Errorf("Number(%q) = true, want false", s)
		}
	}
}

// TestWriter: every cell of every record is made safe, the record given
// is left as it was, lines end with CRLF.
func TestWriter(t *testing.T) {
	var out strings.Builder
	w := csvcell.NewWriter(&out)
	rec := []string{"=1+1", "-12.5", "@x", "plain, with a comma"}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	if want := "'=1+1,-12.5,'@x,\"plain, with a comma\"\r\n"; out.String() != want {
		t.Errorf("written %q, want %q", out.String(), want)
	}
	if rec[0] != "=1+1" || rec[2] != "@x" {
		t.Errorf("the record given was changed: %q", rec)
	}
}

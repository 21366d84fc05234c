package langtag_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/pinsight/pinsight/domain/pagecheck/internal/langtag"
)

// letters calls fn with every lower-case ASCII string of n letters.
func letters(n int, fn func(string)) {
	buf := make([]byte, n)
	var rec func(int)
	rec = func(i int) {
		if i == n {
			fn(string(buf))
			return
		}
		for c := byte('a'); c <= 'z'; c++ {
			buf[i] = c
			rec(i + 1)
		}
	}
	rec(0)
}

// TestSubtagsMatchXText keeps subtags.go honest: every language, script and
// region subtag golang.org/x/text/language knows (in its canonical form) is
// in the generated tables and nothing else is. It fails after an update of
// x/text until go generate ./domain/pagecheck/internal/langtag is run.
func TestSubtagsMatchXText(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerates every four-letter script code")
	}
	count := map[string]int{}
	compare := func(kind, s string, want, got bool) {
		if want {
			count[kind]++
		}
		if want != got {
			t.Errorf("%s %q: x/text says %v, subtags.go %v (run go generate ./domain/pagecheck/internal/langtag)", kind, s, want, got)
		}
	}
	for n := 2; n <= 3; n++ {
		letters(n, func(s string) {
			b, err := language.ParseBase(s)
			compare("language", s, err == nil && b.String() == s, langtag.IsLanguage(s))
		})
	}
	letters(4, func(s string) {
		sc, err := language.ParseScript(s)
		compare("script", s, err == nil && strings.EqualFold(sc.String(), s), langtag.IsScript(s))
	})
	letters(2, func(s string) {
		r, err := language.ParseRegion(s)
		compare("region", s, err == nil && r.String() == strings.ToUpper(s) && r.Canonicalize() == r, langtag.IsRegion(s))
	})
	for i := range 1000 {
		s := fmt.Sprintf("%03d", i)
		r, err := language.ParseRegion(s)
		compare("region", s, err == nil && r.String() == s, langtag.IsRegion(s))
	}
	// The registry holds about 8,000 languages, 200 scripts and 300
	// regions: a table that lost its data would pass the loop above only if
	// x/text had lost it too.
	if count["language"] < 8000 || count["script"] < 200 || count["region"] < 300 {
		t.Errorf("subtags found: %v", count)
	}
}

func TestLanguageTags(t *testing.T) {
	for _, tc := range []struct {
		tag            string
		hreflang, lang bool
	}{
		{"en", true, true},
		{"EN-gb", true, true},
		{"hi-IN", true, true},
		{"zh-Hant-TW", true, true},
		{"es-419", true, true},
		{"x-default", true, true}, // a private-use tag for lang
		{"X-Default", true, true},
		{"fil", true, true},       // no two-letter code exists
		{"eng", false, false},     // the registry lists en, not eng
		{"en-UK", false, false},   // UK is an alias: GB
		{"en_GB", false, false},   // underscore
		{"english", false, false}, // not a code
		{"xx", false, false},      // well-formed, unassigned
		{"en-Latx", false, false}, // unknown script
		{"es-840", false, false},  // a country's number: BCP 47 uses US
		{"en-US-x-twain", false, true},
		{"de-CH-1901", false, true},
		{"sl-rozaj-biske", false, true},
		{"zh-yue-HK", false, true}, // extended language
		{"en-a-bbb-x-a-ccc", false, true},
		{"x-whatever", false, true},
		{"en-a", false, false}, // an extension singleton needs a subtag
		{"en-", false, false},
		{"", false, false},
		{"i-klingon", false, false}, // grandfathered: refused
	} {
		if got := langtag.ValidHreflang(tc.tag); got != tc.hreflang {
			t.Errorf("hreflang %q valid = %v, want %v", tc.tag, got, tc.hreflang)
		}
		if got := langtag.Valid(tc.tag); got != tc.lang {
			t.Errorf("lang %q valid = %v, want %v", tc.tag, got, tc.lang)
		}
	}
}

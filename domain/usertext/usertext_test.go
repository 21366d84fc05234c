package usertext_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/usertext"
)

// written is text in scripts and sequences users of an Indian service write:
// all of it must pass, single-line.
var written = map[string]string{
	"Hindi":                           "डाकघर अच्छा है, कर्मचारी विनम्र हैं",
	"Devanagari half form (ZWJ)":      "क्\u200Dष",
	"Devanagari explicit virama":      "क्\u200Cष",
	"Devanagari nukta and marks":      "ज़ुँ",
	"Malayalam chillu (ZWJ)":          "ന്\u200D",
	"Malayalam":                       "തപാൽ ഓഫീസ്",
	"Bengali ya-phala (ZWJ)":          "র\u200D্য",
	"Tamil":                           "தமிழ் அஞ்சல் நிலையம்",
	"Tibetan stack":                   "བསྒྲུབས",
	"Vietnamese, decomposed":          "Tie\u0302\u0301ng Vie\u0323\u0302t",
	"emoji family (ZWJ sequence)":     "\U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466",
	"emoji keycap and heart":          "1\uFE0F\u20E3 \u2764\uFE0F \U0001F44D\U0001F3FD",
	"no-break and ideographic spaces": "a\u00A0b\u3000c",
	"markup is only text":             `<script>alert("x")</script> ' OR 1=1 --`,
}

func TestRealTextPasses(t *testing.T) {
	for name, s := range written {
		if msg := usertext.CheckLine(s); msg != "" {
			t.Errorf("%s %q: %s; want accepted", name, s, msg)
		}
		if got := usertext.Strip(s); got != s {
			t.Errorf("Strip(%s %q) = %q; want unchanged", name, s, got)
		}
	}
	if msg := usertext.CheckLines("line one\r\nline\ttwo\n" + written["Hindi"]); msg != "" {
		t.Errorf("multi-line text: %s; want accepted", msg)
	}
}

func TestRefused(t *testing.T) {
	zalgo := "a" + strings.Repeat("\u0301", 2000)
	for _, tt := range []struct {
		name, s   string
		multiline bool
		want      string
	}{
		{"invalid UTF-8", "a\xffb", true, usertext.MsgUTF8},
		{"replacement character", "a\uFFFDb", true, usertext.MsgUTF8},
		{"NUL", "a\x00b", true, usertext.MsgControl},
		{"escape", "a\x1bb", true, usertext.MsgControl},
		{"C1 next line", "a\u0085b", true, usertext.MsgControl},
		{"line feed in a single line", "a\nb", false, usertext.MsgControlLine},
		{"tab in a single line", "a\tb", false, usertext.MsgControlLine},
		{"line separator", "a\u2028b", true, usertext.MsgSeparator},
		{"paragraph separator", "a\u2029b", false, usertext.MsgSeparator},
		{"right-to-left override", "abc\u202Edef", true, usertext.MsgInvisible},
		{"right-to-left isolate", "a\u2067b", false, usertext.MsgInvisible},
		{"right-to-left mark", "a\u200Fb", false, usertext.MsgInvisible},
		{"zero-width space", "pin\u200Bsight", true, usertext.MsgInvisible},
		{"word joiner", "a\u2060b", false, usertext.MsgInvisible},
		{"byte order mark", "\uFEFFa", false, usertext.MsgInvisible},
		{"soft hyphen", "a\u00ADb", false, usertext.MsgInvisible},
		{"invisible times", "a\u2062b", false, usertext.MsgInvisible},
		{"tag characters", "a\U000E0041\U000E0042", false, usertext.MsgInvisible},
		{"2,000 stacked marks", zalgo, true, usertext.MsgMarks},
		{"one mark too many", "a" + strings.Repeat("\u0301", usertext.MaxMarks+1), false, usertext.MsgMarks},
		{"joiners do not restart the count", "a" + strings.Repeat("\u0301\u200D", usertext.MaxMarks+1), false, usertext.MsgMarks},
		{"enclosing marks count", "a" + strings.Repeat("\u20DD", usertext.MaxMarks+1), false, usertext.MsgMarks},
	} {
		check := usertext.CheckLine
		if tt.multiline {
			check = usertext.CheckLines
		}
		if got := check(tt.s); got != tt.want {
			t.Errorf("%s: %q; want %q", tt.name, got, tt.want)
		}
	}
	full := "a" + strings.Repeat("\u0301", usertext.MaxMarks)
	if msg := usertext.CheckLine(full + "b" + strings.Repeat("\u0301", usertext.MaxMarks)); msg != "" {
		t.Errorf("%d marks on each of two characters: %s; want accepted", usertext.MaxMarks, msg)
	}
	if !strings.Contains(usertext.MsgMarks, " "+strconv.Itoa(usertext.MaxMarks)+" ") {
		t.Errorf("MsgMarks %q does not name MaxMarks %d", usertext.MsgMarks, usertext.MaxMarks)
	}
}

func TestStrip(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"hidden characters dropped", "\u202Elap\u200Btop\uFEFF\u00AD\u2028\x00\x1b", "laptop"},
		{"invalid bytes dropped", "lap\xfftop\uFFFD", "laptop"},
		{"marks beyond the limit dropped", "a" + strings.Repeat("\u0301", 2000) + "b", "a" + strings.Repeat("\u0301", usertext.MaxMarks) + "b"},
		{"joiners kept", written["Devanagari half form (ZWJ)"], written["Devanagari half form (ZWJ)"]},
	} {
		if got := usertext.Strip(tt.in); got != tt.want {
			t.Errorf("%s: Strip(%q) = %q; want %q", tt.name, tt.in, got, tt.want)
		}
		if msg := usertext.CheckLine(usertext.Strip(tt.in)); msg != "" {
			t.Errorf("%s: CheckLine(Strip(%q)) = %s; want accepted", tt.name, tt.in, msg)
		}
	}
}

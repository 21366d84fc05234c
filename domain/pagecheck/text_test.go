package pagecheck_test

import (
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/pinsight/pinsight/domain/pagecheck"
)

// textCorpus is texts collapsed or nearly: "|" separates text nodes.
var textCorpus = []string{
	"", "a", "a b", "Page 12", "JavaScript:void(0)", " java\tscript :x", "FILE:///x", "fi le:", "file", "javascr\u0130pt:", "jAvAsCr\xc4 \xb0pt:", "\u212Aey Words|key words",
	"Stra\u00dfe STRASSE stra\u00dfe", "\u24b6bc \u24d0bc", "\u0130stanbul istanbul", " a", "a ", "a  b", "a\tb", "a\nb", "a\u00a0b", "\u00a0", "a\u0085b", "a\u3000b", "x\xffy", "\xff",
	"a|b", "a |b", "|", "a||b", "caf\u00e9 cr\u00e8me", strings.Repeat("word ", 200) + "end", strings.Repeat("é", 500), "  ",
}

// TestTextShortcut: an element's text, and its prefix, are what writing
// them word by word gives, a sole text already collapsed included.
func TestTextShortcut(t *testing.T) {
	for _, s := range textCorpus {
		checkText(t, s)
	}
}

func FuzzText(f *testing.F) {
	for _, s := range textCorpus {
		f.Add(s)
	}
	f.Fuzz(checkText)
}

// checkText checks the text of a <p> holding the texts of s ("|"
// separated, in a <b> after the first).
func checkText(t *testing.T, s string) {
	texts := strings.Split(s, "|")
	p := el("p", nil, text(texts[0]))
	for _, x := range texts[1:] {
		p.Children = append(p.Children, el("b", nil, text(x)))
	}
	if got, want := pagecheck.TextOf(p), pagecheck.JoinedText(p); got != want {
		t.Fatalf("TextOf(%q) = %q, want %q", s, got, want)
	}
	for _, prefix := range []string{"javascript:", "file:"} {
		want := strings.HasPrefix(strings.ToLower(strings.Join(strings.Fields(s), "")), prefix)
		if got := pagecheck.SqueezedPrefix(s, prefix); got != want {
			t.Fatalf("SqueezedPrefix(%q, %q) = %v, want %v", s, prefix, got, want)
		}
	}
	if kw := pagecheck.Keywords(texts[len(texts)-1]); len(kw) > 0 {
		got, want := pagecheck.InText(texts[0], kw), inTextLowered(texts[0], kw)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("InText(%q, %q) = %v, want %v", texts[0], kw, got, want)
		}
	}
	for _, limit := range []int{3, 60} {
		if got, want := pagecheck.TextPrefix(p, limit), pagecheck.WalkedPrefix(p, limit); got != want {
			t.Fatalf("TextPrefix(%q, %d) = %q, want %q", s, limit, got, want)
		}
	}
}

// inTextLowered is which of kw are words of s, read from s lower-cased
// whole.
func inTextLowered(s string, kw []string) map[string]bool {
	in := make(map[string]bool, len(kw))
	for _, w := range kw {
		in[w] = false
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	}) {
		if _, ok := in[w]; ok {
			in[w] = true
		}
	}
	return in
}

package css

import (
	"reflect"
	"testing"
)

func TestCSSRulesAndFontSizes(t *testing.T) {
	css := `/* theme */ @import url("x.css"); @media (max-width: 600px) { body { font-size: 8px } }
html { font-size: 62.5% } body{font:italic 700 1.2em/1.4 "Open Sans", sans-serif}
a[title="}"] { color: red; } .x { &:hover { font-size: 1px } font-size: 9px }`
	var got []string
	for _, r := range Rules(css) {
		Decls(r.Block, func(p, v string) { got = append(got, r.Selector+"|"+p+"="+v) })
	}
	want := []string{"html|font-size=62.5%", `body|font=italic 700 1.2em/1.4 "Open Sans", sans-serif`, `a[title="}"]|color=red`, ".x|font-size=9px"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("declarations:\n got %q\nwant %q", got, want)
	}
	for _, tc := range []struct {
		v    string
		px   float64
		read bool
	}{
		{"10px", 10, true}, {"0.75em", 12, true}, {"75%", 12, true}, {"1rem", 10, true}, {"9pt", 12, true},
		{"small", 13, true}, {"smaller", 16 / 1.2, true}, {"inherit", 16, true}, {"initial", 16, true},
		{"2vw", 0, false}, {"calc(1em + 2px)", 0, false}, {"var(--base)", 0, false}, {"-1px", 0, false}, {"12", 0, false},
	} {
		px, ok := FontSizePx(tc.v, 16, 10)
		if ok != tc.read || (ok && px != tc.px) {
			t.Errorf("font-size %s = %v %v, want %v %v", tc.v, px, ok, tc.px, tc.read)
		}
	}
	for v, want := range map[string]string{
		"italic bold 10px/1.4 Georgia, serif": "10px", "700 small sans-serif": "small", "caption": "", "12px Arial": "12px",
		"bold 2vw/1 serif": "2vw",
	} {
		if got := ShorthandSize(v); got != want {
			t.Errorf("font: %s -> %q, want %q", v, got, want)
		}
	}
}

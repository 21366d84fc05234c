package pagecheck_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webpage"
)

// hostilePage is a page built to bloat a report: a 2 MiB title and <h1>,
// thousands of long headings, hreflang alternates, images, scripts, links
// and e-mail addresses, header values and a robots.txt rule of 60 KB.
func hostilePage() (*webpage.Fetched, map[string]int) {
	long := strings.Repeat("Pinsight<&>", (2<<20)/11)
	huge := strings.Repeat("v", 60<<10)
	const n = 3000
	head := []*webpage.Node{el("title", nil, text(long))}
	body := []*webpage.Node{el("h1", nil, text(long))}
	for i := range n {
		item := fmt.Sprintf("%d-%s", i, strings.Repeat("x", 500))
		head = append(head, el("link", []string{"rel", "alternate", "hreflang", "l" + item, "href", "https://h.example/" + item}))
		body = append(body,
			el("h2", nil, text(item)),
			el("img", []string{"src", "/" + item + ".png"}),
			el("script", []string{"src", "/" + item + ".js"}),
			el("a", []string{"href", "https://other.example/" + item, "target", "_blank"}, text("e"+item+"@mail.example")))
	}
	f := &webpage.Fetched{
		Page: webpage.Response{URL: "https://h.example/", Status: 200, Body: []byte(long),
			Header: map[string][]string{"Server": {"nginx/1.2 " + huge}, "X-Powered-By": {huge}, "Content-Security-Policy": {huge}}},
		Document: &webpage.Node{Type: webpage.DocumentNode, Children: []*webpage.Node{el("html", []string{"lang", huge}, el("head", nil, head...), el("body", nil, body...))}},
		Robots:   &webpage.Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /" + huge + "\nDisallow: /\n")},
	}
	// The number of entries each listing check found.
	return f, map[string]int{"hreflang": n, "image_keywords": n, "image_format": n, "defer_javascript": n, "unsafe_cross_origin_links": n}
}

func text(s string) *webpage.Node { return &webpage.Node{Type: webpage.TextNode, Text: s} }

// TestHostilePageStaysSmall: whatever a page holds, every check's value and
// message stay within the bounds, entries left out are counted, and the
// whole report is a few tens of kilobytes (it was 6.5 MB for a 2 MiB title).
func TestHostilePageStaysSmall(t *testing.T) {
	f, found := hostilePage()
	res := pagecheck.Analyse(f, pagecheck.DefaultWeights).Results
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) > 64<<10 {
		t.Errorf("the results of a hostile page take %d bytes of JSON, want at most 64 KiB", len(raw))
	}
	for _, checks := range res {
		for _, c := range checks {
			if n := utf8.RuneCountInString(c.Message); n > pagecheck.MaxMessageRunes {
				t.Errorf("%s: message of %d characters", c.ID, n)
			}
			if total := checkBounds(t, c.ID, c.Value, true); total > pagecheck.MaxValueText {
				t.Errorf("%s: value holds %d characters of text, want at most %d", c.ID, total, pagecheck.MaxValueText)
			}
			if len(c.Offending) > pagecheck.MaxValueItems {
				t.Errorf("%s: %d offending entries", c.ID, len(c.Offending))
			}
			if total := checkBounds(t, c.ID, anyList(c.Offending), true); total > pagecheck.MaxValueText {
				t.Errorf("%s: offending entries hold %d characters of text, want at most %d", c.ID, total, pagecheck.MaxValueText)
			}
			if want, ok := found[c.ID]; ok {
				if got := len(c.Offending) + c.OffendingOmitted; got != want || c.OffendingOmitted == 0 {
					t.Errorf("%s: %d offending shown + %d omitted = %d, want the %d found", c.ID, len(c.Offending), c.OffendingOmitted, got, want)
				}
			}
			if want, ok := found[c.ID]; ok {
				if got := entries(c.Value) + c.Omitted; got != want {
					t.Errorf("%s: %d entries shown + %d omitted = %d, want the %d found", c.ID, entries(c.Value), c.Omitted, got, want)
				}
				if c.Omitted == 0 {
					t.Errorf("%s: nothing counted as omitted", c.ID)
				}
			}
		}
	}
	title := check(t, f, "title").Value.(string)
	if utf8.RuneCountInString(title) != pagecheck.MaxValueRunes || !strings.HasSuffix(title, pagecheck.Ellipsis) || !strings.HasPrefix(title, "Pinsight<&>") {
		t.Errorf("title value = %q, want its first %d characters and %q", title, pagecheck.MaxValueRunes-1, pagecheck.Ellipsis)
	}
	// A bounded report survives a JSON round trip unchanged, as stores need.
	var back pagecheck.Results
	if err := json.Unmarshal(raw, &back); err != nil || !reflect.DeepEqual(back, res) {
		t.Errorf("the bounded results do not survive a JSON round trip (%v)", err)
	}
}

// checkBounds fails on a string, list or object of v beyond its bound and
// returns the characters of text v holds.
func checkBounds(t *testing.T, id string, v any, top bool) int {
	t.Helper()
	switch x := v.(type) {
	case string:
		if n := utf8.RuneCountInString(x); n > pagecheck.MaxValueRunes || !utf8.ValidString(x) {
			t.Errorf("%s: a string of %d characters (valid UTF-8: %v)", id, n, utf8.ValidString(x))
		}
		return utf8.RuneCountInString(x)
	case []any:
		if len(x) > pagecheck.MaxValueItems {
			t.Errorf("%s: a list of %d entries", id, len(x))
		}
		total := 0
		for _, e := range x {
			total += checkBounds(t, id, e, false)
		}
		return total
	case map[string]any:
		if len(x) > pagecheck.MaxValueItems {
			t.Errorf("%s: an object of %d entries", id, len(x))
		}
		total := 0
		for k, e := range x {
			total += checkBounds(t, id, k, false) + checkBounds(t, id, e, false)
		}
		return total
	}
	return 0
}

func anyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func entries(v any) int {
	switch x := v.(type) {
	case []any:
		return len(x)
	case map[string]any:
		return len(x)
	}
	return 0
}

// TestValueStringCut: a string of up to maxValueRunes characters is kept as
// it is; a longer one keeps its first maxValueRunes-1 characters (never a
// part of one) and ends with the ellipsis; invalid UTF-8 becomes U+FFFD.
func TestValueStringCut(t *testing.T) {
	exact := strings.Repeat("é", pagecheck.MaxValueRunes)
	for _, tc := range []struct{ title, want string }{
		{"Short", "Short"},
		{exact, exact},
		{exact + "x", strings.Repeat("é", pagecheck.MaxValueRunes-1) + pagecheck.Ellipsis},
		{strings.Repeat("日本", pagecheck.MaxValueRunes), strings.Repeat("日本", (pagecheck.MaxValueRunes-1)/2) + "日" + pagecheck.Ellipsis},
		{"bad \xff\xfe byte", "bad \uFFFD byte"},
	} {
		f := &webpage.Fetched{Page: webpage.Response{URL: "https://c.example/", Status: 200}, Document: doc(el("title", nil, text(tc.title)))}
		if got := check(t, f, "title").Value; got != tc.want {
			t.Errorf("title %.20q... = %q, want %q", tc.title, got, tc.want)
		}
	}
}

// TestValueFitsShortcut: a value within the bounds is kept as it is, and
// the same as copying it entry by entry gives; one that is not is cut as
// the copy cuts it.
func TestValueFitsShortcut(t *testing.T) {
	many := func(n int, s string) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = s
		}
		return out
	}
	long := strings.Repeat("é", pagecheck.MaxValueRunes)
	for _, v := range []any{
		[]any{}, []any(nil), map[string]any{}, map[string]any(nil), []any{[]any(nil)}, map[string]any{"a": map[string]any(nil)},
		[]any{"a", 1.0, true, nil}, map[string]any{"x": []any{"a", map[string]any{"k": "v"}}, "n": 2.0},
		many(pagecheck.MaxValueItems, "x"), many(pagecheck.MaxValueItems+1, "x"), []any{long, long + "x"}, []any{"ok \xff"},
		map[string]any{long + "x": 1.0}, map[string]any{"bad\xff": 1.0},
		many(pagecheck.MaxValueText/pagecheck.MaxValueRunes, long), append(many(pagecheck.MaxValueText/pagecheck.MaxValueRunes, long), "x"),
		[]any{many(pagecheck.MaxValueItems, long)}, []any{[]string{"not", "json"}},
	} {
		got, left, omitted := pagecheck.BoundValue(v)
		want, wantLeft, wantOmitted := pagecheck.BoundValueCopied(v)
		if !reflect.DeepEqual(got, want) || left != wantLeft || omitted != wantOmitted {
			t.Errorf("bounding %.60v = %.60v, %d left, %d omitted; copied: %.60v, %d, %d", v, got, left, omitted, want, wantLeft, wantOmitted)
		}
	}
}

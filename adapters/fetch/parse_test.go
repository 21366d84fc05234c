package fetch_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webpage"
)

// parseInputs are HTML documents of every kind of node: the test pages,
// foreign content, attributes with namespaces, a doctype with identifiers,
// comments, nesting deeper than any page's.
func parseInputs(t testing.TB) [][]byte {
	t.Helper()
	in := [][]byte{
		[]byte(""),
		[]byte(`<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><html><!-- c --><p>a<b>b</b></p>`),
		[]byte(`<svg viewBox="0 0 1 1" xlink:href="#a"><foreignObject><p>x</p></foreignObject></svg><math><mi>x</mi></math><template><p>t</p></template>`),
		[]byte(`<table><tr><td>1<td>2</table><select><option>a<option>b</select><p>unclosed <i>nest <b>mis</i>matched</b>`),
		[]byte(strings.Repeat("<div>", 500) + "deep" + strings.Repeat("</div>", 10)),
		[]byte(strings.Repeat("<div>", 5000) + "too deep: refused"),
	}
	for _, name := range []string{"good.html", "poor.html"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, b)
	}
	return in
}

// TestParseHTMLTree: ParseHTML's tree is the parser's, node for node.
func TestParseHTMLTree(t *testing.T) {
	for _, b := range parseInputs(t) {
		checkTree(t, b)
	}
}

// FuzzParseHTML: ParseHTML's tree is the parser's whatever the bytes.
func FuzzParseHTML(f *testing.F) {
	for _, b := range parseInputs(f) {
		f.Add(b)
	}
	f.Fuzz(checkTree)
}

// checkTree checks ParseHTML(b) against a plain recursive copy of the
// parser's tree (an empty document when the parser refuses b).
func checkTree(t *testing.T, b []byte) {
	want := &webpage.Node{Type: webpage.DocumentNode}
	if doc, err := xhtml.Parse(bytes.NewReader(b)); err == nil {
		want.Children = copyChildren(doc)
	}
	if got := fetch.ParseHTML(b); !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseHTML(%.80q) differs from the parser's tree", b)
	}
}

// copyChildren copies the children of n that the checks read, recursively.
func copyChildren(n *xhtml.Node) []*webpage.Node {
	var out []*webpage.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		var d *webpage.Node
		switch c.Type {
		case xhtml.ElementNode:
			attrs := make([]webpage.Attr, len(c.Attr))
			for i, a := range c.Attr {
				key := strings.ToLower(a.Key)
				if a.Namespace != "" {
					key = a.Namespace + ":" + key
				}
				attrs[i] = webpage.Attr{Key: key, Val: a.Val}
			}
			d = &webpage.Node{Type: webpage.ElementNode, Tag: strings.ToLower(c.Data), Attrs: attrs}
		case xhtml.TextNode:
			d = &webpage.Node{Type: webpage.TextNode, Text: c.Data}
		case xhtml.CommentNode:
			d = &webpage.Node{Type: webpage.CommentNode, Text: c.Data}
		case xhtml.DoctypeNode:
			var ids []string
			for _, a := range c.Attr {
				ids = append(ids, strings.ToUpper(a.Key)+` "`+a.Val+`"`)
			}
			d = &webpage.Node{Type: webpage.DoctypeNode, Tag: strings.ToLower(c.Data), Text: strings.Join(ids, " ")}
		default:
			continue
		}
		d.Children = copyChildren(c)
		out = append(out, d)
	}
	return out
}

// TestParseHTMLStopsAtMaxElements: a page of more elements than
// webpage.MaxElements is parsed up to the start tag of the one after the
// cap (the parser's own html, head and body added), and the DOM-size
// check says the page was cut; a page at the cap is parsed whole.
func TestParseHTMLStopsAtMaxElements(t *testing.T) {
	page := func(links int) []byte {
		var b bytes.Buffer
		b.WriteString("<!doctype html><title>Links</title><body><!-- < not a tag -->")
		for i := range links {
			fmt.Fprintf(&b, "<a href=\"/p/%d\">%d</a>\n", i, i)
		}
		b.WriteString("<footer id=end>end</footer>")
		return b.Bytes()
	}
	count := func(doc *webpage.Node) (elements, links int, footer bool) {
		doc.Walk(func(n *webpage.Node) bool {
			if n.Type == webpage.ElementNode {
				elements++
				switch n.Tag {
				case "a":
					links++
				case "footer":
					footer = true
				}
			}
			return true
		})
		return
	}
	// The source's elements: title, body, the links, the footer.
	whole := fetch.ParseHTML(page(webpage.MaxElements - 3))
	if els, links, footer := count(whole); links != webpage.MaxElements-3 || !footer || els != webpage.MaxElements+2 {
		t.Errorf("at the cap: %d elements, %d links, footer %v; want all %d links and the footer (html and head added)", els, links, footer, webpage.MaxElements-3)
	}
	cut := fetch.ParseHTML(page(webpage.MaxElements + 1000))
	if els, links, footer := count(cut); links != webpage.MaxElements-2 || footer || els != webpage.MaxElements+2 {
		t.Errorf("over the cap: %d elements, %d links, footer %v; want %d links and no footer", els, links, footer, webpage.MaxElements-2)
	}
	for name, doc := range map[string]*webpage.Node{"at the cap": whole, "over it": cut} {
		fd := &webpage.Fetched{RequestedURL: "https://a.example/", Page: webpage.Response{URL: "https://a.example/", Status: 200}, Document: doc}
		a := pagecheck.Analyse(fd, pagecheck.DefaultWeights)
		c := byID(t, a)["dom_size"]
		if !slices.Contains(c.Errors, "truncated") || !strings.Contains(c.Message, "at least 50000 elements") {
			t.Errorf("%s: dom_size %v %q; want truncated, at least 50000 elements", name, c.Errors, c.Message)
		}
	}
}

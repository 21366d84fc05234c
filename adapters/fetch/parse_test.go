package fetch_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"

	"github.com/pinsight/pinsight/adapters/fetch"
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

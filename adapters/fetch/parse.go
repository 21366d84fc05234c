package fetch

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"

	"github.com/pinsight/pinsight/domain/webpage"
)

// ParseHTML parses b with the HTML5 parsing algorithm (which accepts any
// input, as browsers do) into the domain's document tree.
func ParseHTML(b []byte) *webpage.Node {
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil { // only a read error, impossible on a byte slice
		return &webpage.Node{Type: webpage.DocumentNode}
	}
	return convert(doc)
}

// convert copies an x/net/html tree into webpage.Node form, iteratively so that
// deeply nested input cannot exhaust the stack.
func convert(root *html.Node) *webpage.Node {
	out := &webpage.Node{Type: webpage.DocumentNode}
	type item struct {
		src *html.Node
		dst *webpage.Node
	}
	stack := []item{{root, out}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for c := it.src.FirstChild; c != nil; c = c.NextSibling {
			n := node(c)
			if n == nil {
				continue
			}
			it.dst.Children = append(it.dst.Children, n)
			if c.FirstChild != nil {
				stack = append(stack, item{c, n})
			}
		}
	}
	return out
}

// node converts one node without its children; nil for kinds the checks
// ignore.
func node(n *html.Node) *webpage.Node {
	switch n.Type {
	case html.ElementNode:
		attrs := make([]webpage.Attr, len(n.Attr))
		for i, a := range n.Attr {
			key := strings.ToLower(a.Key)
			if a.Namespace != "" {
				key = a.Namespace + ":" + key
			}
			attrs[i] = webpage.Attr{Key: key, Val: a.Val}
		}
		return &webpage.Node{Type: webpage.ElementNode, Tag: strings.ToLower(n.Data), Attrs: attrs}
	case html.TextNode:
		return &webpage.Node{Type: webpage.TextNode, Text: n.Data}
	case html.CommentNode:
		return &webpage.Node{Type: webpage.CommentNode, Text: n.Data}
	case html.DoctypeNode:
		d := &webpage.Node{Type: webpage.DoctypeNode, Tag: strings.ToLower(n.Data)}
		var ids []string
		for _, a := range n.Attr {
			ids = append(ids, strings.ToUpper(a.Key)+` "`+a.Val+`"`)
		}
		d.Text = strings.Join(ids, " ")
		return d
	}
	return nil
}

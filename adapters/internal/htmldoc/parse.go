// Package htmldoc parses HTML into the domain's document tree
// (webpage.Node), for every adapter that reads pages: the fetcher and the
// renderer build the same trees.
package htmldoc

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"

	"github.com/pinsight/pinsight/domain/webpage"
)

// Parse parses b with the HTML5 parsing algorithm (which accepts any
// input, as browsers do) into the domain's document tree, up to the start
// tag of its element webpage.MaxElements+1 (see cut).
func Parse(b []byte) *webpage.Node {
	doc, err := html.Parse(bytes.NewReader(cut(b, webpage.MaxElements)))
	if err != nil { // only a read error, impossible on a byte slice
		return &webpage.Node{Type: webpage.DocumentNode}
	}
	return convert(doc)
}

// convert copies an x/net/html tree into webpage.Node form, iteratively so
// that deeply nested input cannot exhaust the stack. The nodes, the
// children lists and the attributes are cut from three arrays sized by a
// first walk: three allocations rather than one or two a node.
func convert(root *html.Node) *webpage.Node {
	nodes, attrs := size(root)
	all := make([]webpage.Node, nodes+1)
	kids := make([]*webpage.Node, nodes)
	ats := make([]webpage.Attr, attrs)
	out, all := &all[0], all[1:]
	out.Type = webpage.DocumentNode
	type item struct {
		src *html.Node
		dst *webpage.Node
	}
	stack := []item{{root, out}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		k := 0
		for c := it.src.FirstChild; c != nil; c = c.NextSibling {
			if kept(c) {
				k++
			}
		}
		if k == 0 {
			continue
		}
		children := kids[:0:k]
		kids = kids[k:]
		for c := it.src.FirstChild; c != nil; c = c.NextSibling {
			if !kept(c) {
				continue
			}
			n := &all[0]
			all = all[1:]
			ats = fill(n, c, ats)
			children = append(children, n)
			if c.FirstChild != nil {
				stack = append(stack, item{c, n})
			}
		}
		it.dst.Children = children
	}
	return out
}

// kept reports whether n is of a kind the checks read (the others are
// left out, with their children).
func kept(n *html.Node) bool {
	switch n.Type {
	case html.ElementNode, html.TextNode, html.CommentNode, html.DoctypeNode:
		return true
	}
	return false
}

// size counts the nodes below root that convert keeps and their
// elements' attributes, walking the tree without a stack.
func size(root *html.Node) (nodes, attrs int) {
	n := root.FirstChild
	for n != nil {
		if kept(n) {
			nodes++
			if n.Type == html.ElementNode {
				attrs += len(n.Attr)
			}
			if n.FirstChild != nil {
				n = n.FirstChild
				continue
			}
		}
		for n != root && n.NextSibling == nil {
			n = n.Parent
		}
		if n == root {
			break
		}
		n = n.NextSibling
	}
	return nodes, attrs
}

// fill makes n the copy of src (a kind kept) without its children, its
// attributes cut from the front of ats; it returns the rest of ats.
func fill(n *webpage.Node, src *html.Node, ats []webpage.Attr) []webpage.Attr {
	switch src.Type {
	case html.ElementNode:
		attrs := ats[:len(src.Attr):len(src.Attr)]
		for i, a := range src.Attr {
			key := strings.ToLower(a.Key)
			if a.Namespace != "" {
				key = a.Namespace + ":" + key
			}
			attrs[i] = webpage.Attr{Key: key, Val: a.Val}
		}
		*n = webpage.Node{Type: webpage.ElementNode, Tag: strings.ToLower(src.Data), Attrs: attrs}
		return ats[len(src.Attr):]
	case html.TextNode:
		*n = webpage.Node{Type: webpage.TextNode, Text: src.Data}
	case html.CommentNode:
		*n = webpage.Node{Type: webpage.CommentNode, Text: src.Data}
	case html.DoctypeNode:
		*n = webpage.Node{Type: webpage.DoctypeNode, Tag: strings.ToLower(src.Data)}
		var ids []string
		for _, a := range src.Attr {
			ids = append(ids, strings.ToUpper(a.Key)+` "`+a.Val+`"`)
		}
		n.Text = strings.Join(ids, " ")
	}
	return ats
}

// cut returns b up to the start tag of its element limit+1, or b whole
// when it has at most limit elements. Every start tag begins with "<", so
// a page with at most limit of those is returned at once; others are read
// by the tokenizer, which builds no tree. The parser closes what the cut
// leaves open, as it does for a page whose connection ended there.
func cut(b []byte, limit int) []byte {
	if bytes.Count(b, []byte("<")) <= limit {
		return b
	}
	z := html.NewTokenizer(bytes.NewReader(b))
	at, tags := 0, 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b
		case html.StartTagToken, html.SelfClosingTagToken:
			if tags++; tags > limit {
				return b[:at]
			}
		}
		at += len(z.Raw())
	}
}

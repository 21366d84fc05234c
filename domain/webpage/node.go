package webpage

// NodeType is the kind of a document node.
type NodeType uint8

// Node types (the subset of HTML's the checks need).
const (
	DocumentNode NodeType = iota
	ElementNode
	TextNode
	CommentNode
	DoctypeNode
)

// MaxElements is how many elements of a page's HTML its parsed tree holds
// at most: a parser reads the HTML up to the start tag of element
// MaxElements+1 and no further, so that a page of a million tags costs
// the memory of 50,000 (Lighthouse warns from 1,400; a long encyclopedia
// article has about 30,000). A tree with MaxElements elements or more may
// have been cut there.
const MaxElements = 50_000

// Attr is an attribute of an element; Key is lower case.
type Attr struct {
	Key, Val string
}

// Node is a parsed HTML node. The fetcher builds the tree with a real HTML5
// parser; the domain only walks it.
type Node struct {
	Type     NodeType
	Tag      string // lower-case element name, or the doctype's name
	Attrs    []Attr
	Text     string // text, comment or doctype content
	Children []*Node
}

// Attr returns the value of the attribute key and whether it is present.
func (n *Node) Attr(key string) (string, bool) {
	for _, a := range n.Attrs {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// Walk calls fn for n and every descendant in document order; fn returning
// false skips the node's children.
func (n *Node) Walk(fn func(*Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, c := range n.Children {
		c.Walk(fn)
	}
}

// Elements returns the descendant elements named tag, in document order.
func (n *Node) Elements(tag string) []*Node {
	var out []*Node
	n.Walk(func(c *Node) bool {
		if c.Type == ElementNode && c.Tag == tag {
			out = append(out, c)
		}
		return true
	})
	return out
}

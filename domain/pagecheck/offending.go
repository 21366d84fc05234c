package pagecheck

import (
	"strings"

	"github.com/pinsight/pinsight/domain/webpage"
)

// snippetAttrRunes and snippetTextRunes bound what a snippet shows of one
// attribute value and of an element's text; the whole snippet is then
// bounded like any string of a check (maxValueRunes).
const (
	snippetAttrRunes = 80
	snippetTextRunes = 40
)

// voidTags are the elements that have no end tag.
var voidTags = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true,
}

// snippet shows n as a reader finds it in the page source: its start tag
// with every attribute (long values cut), then, for an element with
// content, the start of its text and its end tag.
func snippet(n *webpage.Node) string {
	var b strings.Builder
	b.WriteByte('<')
	b.WriteString(n.Tag)
	for _, a := range n.Attrs {
		b.WriteByte(' ')
		b.WriteString(a.Key)
		if a.Val != "" {
			b.WriteString(`="`)
			b.WriteString(strings.ReplaceAll(cut(collapse(a.Val), snippetAttrRunes), `"`, "&quot;"))
			b.WriteByte('"')
		}
		if b.Len() > 4*maxValueRunes { // cut later anyway: stop building
			break
		}
	}
	b.WriteByte('>')
	if voidTags[n.Tag] || containerTags[n.Tag] {
		return b.String()
	}
	b.WriteString(textPrefix(n, snippetTextRunes))
	b.WriteString("</" + n.Tag + ">")
	return b.String()
}

// containerTags are the elements a snippet shows as their start tag only:
// their text is the whole page's.
var containerTags = map[string]bool{"html": true, "head": true, "body": true}

// textPrefix is the text inside n, white space collapsed, cut to limit
// characters; it stops reading once it has them.
func textPrefix(n *webpage.Node, limit int) string {
	if t, ok := soleText(n); ok && len(t) <= 8*limit && collapsed(t) {
		return cut(t, limit) // what walkedPrefix would write: no copy
	}
	return walkedPrefix(n, limit)
}

// walkedPrefix is textPrefix written word by word.
func walkedPrefix(n *webpage.Node, limit int) string {
	var sb strings.Builder
	n.Walk(func(c *webpage.Node) bool {
		if sb.Len() > 4*limit {
			return false
		}
		if c.Type == webpage.TextNode {
			appendWords(&sb, c.Text[:min(len(c.Text), 8*limit)])
		}
		return true
	})
	return cut(sb.String(), limit)
}

// collapse replaces runs of white space in s by single spaces.
func collapse(s string) string {
	if !strings.ContainsAny(s, "\t\n\r\f") && !strings.Contains(s, "  ") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// offenders collects what a failed check blames: the first maxValueItems
// entries, made only while they may be shown, and a count of them all.
type offenders struct {
	items []string
	total int
}

// add blames s.
func (o *offenders) add(s string) {
	o.total++
	if len(o.items) < maxValueItems {
		o.items = append(o.items, s)
	}
}

// addNode blames the element n (its snippet).
func (o *offenders) addNode(n *webpage.Node) {
	o.total++
	if len(o.items) < maxValueItems {
		o.items = append(o.items, snippet(n))
	}
}

// blame returns c with o as its offending entries, bounded like a value
// (bound.go) with the entries left out counted in OffendingOmitted.
func (c Check) blame(o offenders) Check {
	if o.total == 0 {
		return c
	}
	b := bounder{left: maxValueText}
	kept, _ := b.item(list(o.items))
	c.Offending = make([]string, 0, len(o.items))
	for _, v := range kept.([]any) {
		c.Offending = append(c.Offending, v.(string))
	}
	c.OffendingOmitted = o.total - len(c.Offending)
	return c
}

// one is the element n alone, blamed.
func one(n *webpage.Node) offenders {
	var o offenders
	o.addNode(n)
	return o
}

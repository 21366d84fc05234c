package pagecheck_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/pinsight/pinsight/domain/webpage"
)

// parseHTML parses b as a browser does (the fetcher's parser, x/net/html,
// with scripting on: <noscript> content is text) into webpage nodes.
func parseHTML(b []byte) *webpage.Node {
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		panic(err)
	}
	var conv func(n *html.Node) *webpage.Node
	conv = func(n *html.Node) *webpage.Node {
		out := &webpage.Node{}
		switch n.Type {
		case html.DocumentNode:
			out.Type = webpage.DocumentNode
		case html.ElementNode:
			out.Type, out.Tag = webpage.ElementNode, n.Data
			for _, a := range n.Attr {
				out.Attrs = append(out.Attrs, webpage.Attr{Key: a.Key, Val: a.Val})
			}
		case html.TextNode:
			out.Type, out.Text = webpage.TextNode, n.Data
		case html.CommentNode:
			out.Type, out.Text = webpage.CommentNode, n.Data
		case html.DoctypeNode:
			out.Type, out.Tag = webpage.DoctypeNode, n.Data
		default:
			return nil
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if k := conv(c); k != nil {
				out.Children = append(out.Children, k)
			}
		}
		return out
	}
	return conv(doc)
}

// fixture reads testdata/rendered/name.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "rendered", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fetchedHTML is a page served at u with body b, robots.txt robots ("" for
// none) and a 404 probe.
func fetchedHTML(u string, b []byte, robots string) *webpage.Fetched {
	f := &webpage.Fetched{
		RequestedURL: u,
		At:           time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC),
		Page: webpage.Response{URL: u, Status: 200, Body: b, WireBytes: int64(len(b)), Encoding: "br", Elapsed: 300 * time.Millisecond,
			Header: map[string][]string{"Content-Type": {"text/html; charset=utf-8"}}},
		Document: parseHTML(b),
		NotFound: &webpage.Response{Status: 404},
	}
	if robots != "" {
		f.Robots = &webpage.Response{Status: 200, Body: []byte(robots)}
	}
	return f
}

// renderedHTML is a settled rendering of u as b, with good lab timings.
func renderedHTML(u string, b []byte) *webpage.Rendered {
	return &webpage.Rendered{URL: u, Status: 200, HTML: b, Document: parseHTML(b), Settled: true, Elapsed: 1500 * time.Millisecond,
		Requests: []webpage.Request{{URL: u, Type: "document", Status: 200, Bytes: int64(len(b))}},
		Timing: webpage.Timing{TTFB: 120 * time.Millisecond, FCP: 900 * time.Millisecond, LCP: 1400 * time.Millisecond,
			LCPElement: "<h1>", CLS: 0.02, TBT: 80 * time.Millisecond, DOMNodes: 120, Bytes: int64(len(b))}}
}

// words is n words of text.
func words(n int) string { return strings.TrimSpace(strings.Repeat("spade ", n)) }

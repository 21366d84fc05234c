package crawlsite_test

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/robots"
)

// refUserAgent is the reference crawler's user agent: its product token
// has no group of its own in the fixture's robots.txt.
const refUserAgent = "PinsightReference/1.0"

// refCrawler is a small single-threaded crawler written to the definitions
// of domain/crawl, independent of Pinsight's crawler: it reads robots.txt
// and the sitemaps, then walks the links breadth first from the start URL
// (so a URL's first visit is at its fewest clicks), follows redirects hop
// by hop, and keeps one crawl.Page per URL it requests or skips for
// robots.txt; then it requests the URLs only the sitemaps list.
type refCrawler struct {
	t      *testing.T
	client *http.Client
	origin string // "http://127.0.0.1:port"
	host   string
	group  robots.Group
	robots []byte
	pages  map[string]*crawl.Page
	order  []string        // the URLs of pages, in crawl order
	inMap  map[string]bool // the URLs the sitemaps list
	// sitemapFiles counts the sitemaps read, by kind: "urlset",
	// "sitemapindex" and "gzip".
	sitemapFiles map[string]int
	queue        []queued
}

type queued struct {
	url   string
	depth int
}

func newRefCrawler(t *testing.T, origin string) *refCrawler {
	u, err := url.Parse(origin)
	if err != nil {
		t.Fatal(err)
	}
	return &refCrawler{t: t, origin: origin, host: u.Host, pages: map[string]*crawl.Page{}, inMap: map[string]bool{}, sitemapFiles: map[string]int{},
		client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// crawl crawls the site and returns its Page records in crawl order.
func (c *refCrawler) crawl() []crawl.Page {
	body, status, err := c.get(c.origin + "/robots.txt")
	if err != nil || status != 200 {
		c.t.Fatalf("robots.txt: %d %v", status, err)
	}
	c.robots = body
	f := robots.Parse(body)
	c.group = f.For(refUserAgent)
	seenMaps := map[string]bool{}
	for _, sm := range append(f.Sitemaps, c.origin+"/sitemap.xml") {
		c.readSitemap(sm, seenMaps)
	}
	c.walk(queued{c.origin + "/", 0})
	for u := range c.inMap {
		if c.pages[u] == nil {
			c.walk(queued{u, crawl.NoDepth})
		}
	}
	out := make([]crawl.Page, 0, len(c.order))
	for _, u := range c.order {
		p := c.pages[u]
		p.InSitemap = c.inMap[u]
		out = append(out, *p)
	}
	return out
}

// onSite normalises u and reports whether it is on the crawled host.
func (c *refCrawler) onSite(u string) (string, bool) {
	p, err := url.Parse(u)
	if err != nil || p.Host != c.host {
		return "", false
	}
	return u, true
}

// readSitemap reads a sitemap or sitemap index (gzipped or not) and the
// sitemaps it lists.
func (c *refCrawler) readSitemap(raw string, seen map[string]bool) {
	u, err := crawl.Normalize(raw)
	if err != nil {
		return // mailto: and the like
	}
	if _, ok := c.onSite(u); !ok || seen[u] {
		return
	}
	seen[u] = true
	body, status, err := c.get(u)
	if err != nil || status != 200 {
		c.t.Fatalf("sitemap %s: %d %v", u, status, err)
	}
	if bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			c.t.Fatal(err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			c.t.Fatal(err)
		}
		c.sitemapFiles["gzip"]++
	}
	var doc struct {
		XMLName  xml.Name
		URLs     []string `xml:"url>loc"`
		Sitemaps []string `xml:"sitemap>loc"`
	}
	if err := xml.Unmarshal(body, &doc); err != nil {
		c.t.Fatalf("sitemap %s: %v", u, err)
	}
	c.sitemapFiles[doc.XMLName.Local]++
	for _, sm := range doc.Sitemaps {
		c.readSitemap(strings.TrimSpace(sm), seen)
	}
	for _, loc := range doc.URLs {
		if n, err := crawl.Normalize(loc); err == nil {
			if _, ok := c.onSite(n); ok {
				c.inMap[n] = true
			}
		}
	}
}

// get requests u without following redirects and reads the body.
func (c *refCrawler) get(u string) ([]byte, int, error) {
	resp, err := c.client.Get(u)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return body, resp.StatusCode, err
}

// walk crawls breadth first from q.
func (c *refCrawler) walk(q queued) {
	c.queue = append(c.queue[:0], q)
	for len(c.queue) > 0 {
		q := c.queue[0]
		c.queue = c.queue[1:]
		if c.pages[q.url] != nil {
			continue
		}
		c.visit(q)
	}
}

// enqueue queues the on-site URL href found on the page at base.
func (c *refCrawler) enqueue(u string, depth int) {
	if c.pages[u] == nil {
		c.queue = append(c.queue, queued{u, depth})
	}
}

// next is the depth of what a page at depth links to.
func next(depth int) int {
	if depth == crawl.NoDepth {
		return crawl.NoDepth
	}
	return depth + 1
}

// visit requests one URL, following its redirects, and records it.
func (c *refCrawler) visit(q queued) {
	p := &crawl.Page{URL: q.url, FinalURL: q.url, Depth: q.depth}
	c.pages[q.url] = p
	c.order = append(c.order, q.url)
	pu, _ := url.Parse(q.url)
	if !c.group.Allowed(pu.RequestURI()) {
		p.FinalURL, p.BlockedByRobots = "", true
		return
	}
	cur, chain := q.url, map[string]bool{}
	var resp *http.Response
	for {
		r, err := c.client.Get(cur)
		if err != nil {
			p.Failure = "could not be fetched"
			var ue *url.Error
			if errors.As(err, &ue) {
				p.Failure = ue.Err.Error()
			}
			return
		}
		if r.StatusCode < 300 || r.StatusCode >= 400 || r.Header.Get("Location") == "" {
			resp = r
			break
		}
		r.Body.Close()
		p.Status = r.StatusCode
		p.Redirects = append(p.Redirects, cur)
		chain[cur] = true
		to, err := crawl.Resolve(cur, r.Header.Get("Location"))
		if err != nil {
			c.t.Fatalf("%s: bad Location %q", cur, r.Header.Get("Location"))
		}
		if chain[to] || len(p.Redirects) > crawl.MaxRedirects {
			p.RedirectLoop = true
			return
		}
		cur = to
	}
	defer resp.Body.Close()
	p.Status, p.FinalURL = resp.StatusCode, cur
	if len(p.Redirects) > 0 {
		c.enqueue(cur, next(q.depth)) // the target has a record of its own
		return
	}
	if resp.StatusCode >= 300 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		return
	}
	doc, err := html.Parse(resp.Body)
	if err != nil {
		c.t.Fatalf("%s: %v", q.url, err)
	}
	c.read(p, doc, resp.Header)
	for _, l := range p.Outlinks {
		c.enqueue(l, next(q.depth))
	}
	if p.Canonical != "" {
		c.enqueue(p.Canonical, next(q.depth))
	}
	for _, l := range p.Hreflang {
		c.enqueue(l, next(q.depth))
	}
}

// read fills p from the page's HTML and headers.
func (c *refCrawler) read(p *crawl.Page, doc *html.Node, header http.Header) {
	resolve := func(href string) (string, bool) {
		u, err := crawl.Resolve(p.URL, href)
		if err != nil {
			return "", false
		}
		return c.onSite(u)
	}
	p.Noindex = noindex(header.Get("X-Robots-Tag"))
	seen := map[string]bool{}
	var main, body *html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "html":
				if p.Lang == "" {
					p.Lang = strings.ToLower(strings.TrimSpace(attr(n, "lang")))
				}
			case "title":
				if p.Title == "" && n.FirstChild != nil {
					p.Title = n.FirstChild.Data
				}
			case "meta":
				switch strings.ToLower(attr(n, "name")) {
				case "description":
					p.Description = attr(n, "content")
				case "robots":
					p.Noindex = p.Noindex || noindex(attr(n, "content"))
				}
			case "link":
				href, ok := resolve(attr(n, "href"))
				rel := strings.ToLower(attr(n, "rel"))
				switch {
				case !ok:
				case rel == "canonical":
					p.Canonical = href
				case rel == "alternate" && attr(n, "hreflang") != "":
					p.Hreflang = append(p.Hreflang, href)
				case (rel == "next" || rel == "prev") && !seen[href]:
					seen[href] = true
					p.Outlinks = append(p.Outlinks, href)
				}
			case "a":
				if href, ok := resolve(attr(n, "href")); ok && !seen[href] {
					seen[href] = true
					p.Outlinks = append(p.Outlinks, href)
				}
			case "main":
				main = n
			case "body":
				body = n
			}
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch)
		}
	}
	walk(doc)
	if main == nil {
		main = body
	}
	p.Fingerprint = crawl.Fingerprint(textOf(main))
}

// textOf is the text of n, its text nodes joined by spaces, without
// scripts and styles.
func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n == nil || n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style") {
			return
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch)
		}
	}
	walk(n)
	return b.String()
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// noindex reports whether a robots meta tag or X-Robots-Tag value says
// noindex (or none).
func noindex(v string) bool {
	for d := range strings.SplitSeq(strings.ToLower(v), ",") {
		if d = strings.TrimSpace(d); d == "noindex" || d == "none" {
			return true
		}
	}
	return false
}

package pagecheck_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webpage"
)

// indexedPage is a page with a title, a canonical URL elsewhere on its
// site, an hreflang alternate, links and text.
func indexedPage() *webpage.Fetched {
	d := doc(
		el("title", nil, text("Handloom sarees from Varanasi")),
		el("meta", []string{"name", "description", "content", "Woven by hand."}),
		el("link", []string{"rel", "canonical", "href", "https://shop.example/sarees"}),
		el("link", []string{"rel", "alternate", "hreflang", "hi", "href", "https://shop.example/hi/sarees"}),
	)
	body := d.Children[0].Children[1]
	body.Children = append(body.Children,
		el("p", nil, text("Our sarees are woven in Varanasi.")),
		el("a", []string{"href", "/sarees/silk"}, text("Silk")),
		el("a", []string{"href", "https://other.example/"}, text("Elsewhere")))
	return &webpage.Fetched{RequestedURL: "https://shop.example/sarees?ref=1",
		Page: webpage.Response{URL: "https://shop.example/sarees?ref=1", Status: 200, Header: map[string][]string{"Content-Type": {"text/html"}}}, Document: d}
}

// An indexed page gives what FollowUps, Analyse and PageFacts give.
func TestIndexedMatchesTheFunctions(t *testing.T) {
	f := indexedPage()
	x := pagecheck.Index(f)
	if got, want := x.FollowUps(), pagecheck.FollowUps(f); !reflect.DeepEqual(got, want) || want.Canonical == "" {
		t.Errorf("FollowUps = %+v, want %+v (with a canonical)", got, want)
	}
	f.Canonical = &webpage.Linked{URL: "https://shop.example/sarees", Response: &webpage.Response{URL: "https://shop.example/sarees", Status: 404}}
	if got, want := x.Analyse(pagecheck.DefaultWeights), pagecheck.Analyse(f, pagecheck.DefaultWeights); !reflect.DeepEqual(got, want) {
		t.Errorf("Analyse = %+v,\nwant %+v", got, want)
	}
	if got, want := x.Facts(), pagecheck.PageFacts(f); !reflect.DeepEqual(got, want) || len(want.Links) != 2 {
		t.Errorf("Facts = %+v, want %+v (two links)", got, want)
	}
}

func ExampleIndex() {
	f := indexedPage()
	x := pagecheck.Index(f)
	fmt.Println("fetch:", x.FollowUps().Canonical)
	// ... fetch it into f.Canonical, then:
	a := x.Analyse(pagecheck.DefaultWeights)
	facts := x.Facts()
	fmt.Println(len(a.Results) > 0, facts.Title, facts.Links)
	// Output:
	// fetch: https://shop.example/sarees
	// true Handloom sarees from Varanasi [https://shop.example/sarees/silk https://other.example/]
}

// A site's pages indexed with its parsed robots.txt get the audit of
// pages indexed alone; a page whose robots.txt is another response reads
// its own.
func TestSiteIndexReadsItsRobots(t *testing.T) {
	blocked := &webpage.Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /sarees\n")}
	site := pagecheck.NewSite(blocked)
	for _, r := range []*webpage.Response{blocked, {Status: 200, Body: []byte("User-agent: *\nDisallow:\n")}, nil} {
		f := indexedPage()
		f.Robots = r
		got, want := site.Index(f).Analyse(pagecheck.DefaultWeights), pagecheck.Analyse(f, pagecheck.DefaultWeights)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("robots %v: Analyse = %+v,\nwant %+v", r, got, want)
		}
		if c := check(t, f, "robots"); c.Passed != (r != blocked) {
			t.Errorf("robots %v: robots check passed = %v", r, c.Passed)
		}
	}
}

func ExampleSite_Index() {
	robotsTxt := &webpage.Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /sarees\n")}
	site := pagecheck.NewSite(robotsTxt) // parsed once
	for _, u := range []string{"https://shop.example/sarees", "https://shop.example/about"} {
		f := indexedPage()
		f.Page.URL, f.Robots = u, robotsTxt
		for _, c := range site.Index(f).Analyse(pagecheck.DefaultWeights).Results[pagecheck.SEO] {
			if c.ID == "robots" {
				fmt.Println(u, c.Passed)
			}
		}
	}
	// Output:
	// https://shop.example/sarees false
	// https://shop.example/about true
}

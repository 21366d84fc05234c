package crawl_test

import (
	"fmt"
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
)

func keys(parts []crawl.TypeIssues) string {
	var out []string
	for _, p := range parts {
		for _, i := range p.Issues {
			if i.Type != p.Type {
				out = append(out, "MISFILED")
			}
			out = append(out, string(i.Type)+":"+i.URL+i.LineText)
		}
	}
	return fmt.Sprint(out)
}

func TestDiffIssues(t *testing.T) {
	prev := []crawl.Issue{
		{Type: crawl.DeepPage, URL: "https://e.com/d"},
		{Type: crawl.BrokenLink, URL: "https://e.com/gone"},
		{Type: crawl.BrokenLink, URL: "https://e.com/fixed"},
		{Type: crawl.RobotsTxtInvalid, URL: "https://e.com/robots.txt", Line: 3, LineText: "Foo: bar"},
		{Type: crawl.RobotsTxtInvalid, URL: "https://e.com/robots.txt", Line: 4, LineText: "Disallow: x"},
	}
	cur := []crawl.Issue{
		{Type: crawl.RobotsTxtInvalid, URL: "https://e.com/robots.txt", Line: 5, LineText: "Foo: bar"}, // moved down: the same
		{Type: crawl.BrokenLink, URL: "https://e.com/gone", Detail: "now 410"},
		{Type: crawl.DuplicateTitle, URL: "https://e.com/a"},
		{Type: crawl.BrokenLink, URL: "https://e.com/new"},
		{Type: crawl.DeepPage, URL: "https://e.com/gone"}, // same URL, other type: new
	}
	d := crawl.DiffIssues(prev, cur)
	tests := []struct {
		name string
		got  []crawl.TypeIssues
		want string
	}{
		{"new", d.New, "[broken_link:https://e.com/new duplicate_title:https://e.com/a deep_page:https://e.com/gone]"},
		{"fixed", d.Fixed, "[broken_link:https://e.com/fixed deep_page:https://e.com/d robots_txt_invalid:https://e.com/robots.txtDisallow: x]"},
		{"persisting", d.Persisting, "[broken_link:https://e.com/gone robots_txt_invalid:https://e.com/robots.txtFoo: bar]"},
	}
	for _, tt := range tests {
		if got := keys(tt.got); got != tt.want {
			t.Errorf("%s = %s\nwant %s", tt.name, got, tt.want)
		}
	}
	if d.Persisting[0].Issues[0].Detail != "now 410" {
		t.Error("persisting issues are not the later crawl's")
	}
	if e := crawl.DiffIssues(nil, nil); e.New != nil || e.Fixed != nil || e.Persisting != nil {
		t.Errorf("empty diff = %+v", e)
	}
}

func ExampleDiffIssues() {
	prev := []crawl.Issue{{Type: crawl.BrokenLink, URL: "https://example.com/a"}, {Type: crawl.DeepPage, URL: "https://example.com/b"}}
	cur := []crawl.Issue{{Type: crawl.DeepPage, URL: "https://example.com/b"}, {Type: crawl.OrphanPage, URL: "https://example.com/c"}}
	d := crawl.DiffIssues(prev, cur)
	fmt.Println("new:", d.New[0].Type, d.New[0].Issues[0].URL)
	fmt.Println("fixed:", d.Fixed[0].Type, d.Fixed[0].Issues[0].URL)
	fmt.Println("persisting:", d.Persisting[0].Type, d.Persisting[0].Issues[0].URL)
	// Output:
	// new: orphan_page https://example.com/c
	// fixed: broken_link https://example.com/a
	// persisting: deep_page https://example.com/b
}

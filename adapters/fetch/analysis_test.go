package fetch_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webpage"
)

// checkIDs are every check, in report order.
var checkIDs = []string{
	"http_status", "title", "meta_description", "headings", "content_keywords", "image_keywords",
	"seo_friendly_url", "404_page", "robots", "noindex", "in_page_links", "language", "favicon",
	"canonical", "hreflang", "robots_directives", "crawlable_anchors", "link_text", "plugins",
	"text_compression", "load_time", "page_size", "http_requests", "image_format", "defer_javascript", "dom_size",
	"image_dimensions",
	"https_encryption", "mixed_content", "server_signature", "unsafe_cross_origin_links", "plaintext_email",
	"hsts", "content_security_policy", "x_content_type_options",
	"structured_data", "meta_viewport", "charset", "sitemap", "social", "content_length", "text_html_ratio",
	"inline_css", "deprecated_html", "doctype", "font_size",
}

// poorErrors are the error codes each check gives the poor page ("" = passes).
var poorErrors = map[string]string{
	"http_status": "", "title": "too_many,too_long", "meta_description": "missing", "headings": "too_many",
	"content_keywords": "missing_keywords", "image_keywords": "missing_alt", "seo_friendly_url": "unfriendly",
	"404_page": "soft_404", "robots": "disallowed", "noindex": "noindex", "in_page_links": "too_many",
	"language": "missing", "favicon": "missing", "canonical": "other_host", "hreflang": "invalid_code,relative,missing_self",
	"robots_directives": "", "crawlable_anchors": "javascript_href", "link_text": "generic_text", "plugins": "plugins",
	"image_dimensions": "unsized", "font_size": "",
	"text_compression": "missing", "load_time": "", "page_size": "", "http_requests": "too_many",
	"image_format": "legacy_format", "defer_javascript": "not_deferred", "dom_size": "too_many",
	"https_encryption": "not_https", "mixed_content": "", "server_signature": "exposed",
	"unsafe_cross_origin_links": "unsafe_links", "plaintext_email": "exposed", "hsts": "not_https",
	"content_security_policy": "missing", "x_content_type_options": "missing",
	"structured_data": "missing", "meta_viewport": "missing", "charset": "missing", "sitemap": "missing",
	"social": "missing", "content_length": "too_short", "text_html_ratio": "too_low", "inline_css": "inline_styles",
	"deprecated_html": "deprecated_tags", "doctype": "missing",
}

// byID indexes an analysis's checks.
func byID(t *testing.T, a pagecheck.Analysis) map[string]pagecheck.Check {
	t.Helper()
	out := map[string]pagecheck.Check{}
	var order []string
	for _, cat := range pagecheck.Categories {
		for _, c := range a.Results[cat] {
			if c.Category != cat {
				t.Errorf("%s filed under %s, says %s", c.ID, cat, c.Category)
			}
			if c.Message == "" {
				t.Errorf("%s has no message", c.ID)
			}
			if c.Passed != (len(c.Errors) == 0) {
				t.Errorf("%s: passed=%v with errors %v", c.ID, c.Passed, c.Errors)
			}
			out[c.ID] = c
			order = append(order, c.ID)
		}
	}
	if !slices.Equal(order, checkIDs) {
		t.Fatalf("checks = %v\nwant %v", order, checkIDs)
	}
	return out
}

func analyse(t *testing.T, f *fetch.Fetcher, rawURL string) (*webpage.Fetched, pagecheck.Analysis) {
	t.Helper()
	fd, err := f.Fetch(context.Background(), rawURL, nil)
	if err != nil {
		t.Fatalf("Fetch(%s): %v", rawURL, err)
	}
	return fd, pagecheck.Analyse(fd, pagecheck.DefaultWeights)
}

func TestWellBuiltPagePassesEveryCheck(t *testing.T) {
	s := newFixtureSite(t, fetch.Config{})
	_, a := analyse(t, s.fetcher, s.good.URL+"/")
	checks := byID(t, a)
	for _, id := range checkIDs {
		if c := checks[id]; !c.Passed {
			t.Errorf("%s failed on the good page: %v %q (value %v)", id, c.Errors, c.Message, c.Value)
		}
	}
	if a.Score != 100 || a.Rating != pagecheck.Good {
		t.Errorf("score %d %s, want 100 good", a.Score, a.Rating)
	}
	if got := checks["title"].Value; got != "Garden Tools Guide for Small Gardens" {
		t.Errorf("title value = %v", got)
	}
	if got, want := checks["sitemap"].Value, []any{s.good.URL + "/sitemap.xml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("sitemap value = %v, want %v", got, want)
	}
	if got := checks["404_page"].Value; got != 404.0 {
		t.Errorf("404_page value = %v, want 404", got)
	}
}

func TestPoorPageFailsCheckByCheck(t *testing.T) {
	s := newFixtureSite(t, fetch.Config{})
	_, a := analyse(t, s.fetcher, s.poor.URL+"/")
	checks := byID(t, a)
	for _, id := range checkIDs {
		want, ok := poorErrors[id]
		if !ok {
			t.Fatalf("no expectation for %s", id)
		}
		c := checks[id]
		if got := strings.Join(c.Errors, ","); got != want || c.Passed != (want == "") {
			t.Errorf("%s: passed=%v errors %q, want %q (%s; value %v)", id, c.Passed, got, want, c.Message, c.Value)
		}
	}
	// Passed: http_status (high, 10), load_time, page_size, mixed_content
	// (medium, 5 each) of 11 high and 21 medium checks: 100*25/215.
	if a.Score != 11 || a.Rating != pagecheck.Bad {
		t.Errorf("score %d %s, want 11 bad", a.Score, a.Rating)
	}
	if got := checks["404_page"].Value; got != 200.0 {
		t.Errorf("404_page value = %v, want 200 (the handler answers 200 to everything)", got)
	}
	if got := checks["robots"].Value; got != "Disallow: /" {
		t.Errorf("robots value = %v", got)
	}
}

// TestResultsSurviveJSON: a stored report reads back deep-equal.
func TestResultsSurviveJSON(t *testing.T) {
	s := newFixtureSite(t, fetch.Config{})
	for _, u := range []string{s.good.URL + "/", s.poor.URL + "/"} {
		_, a := analyse(t, s.fetcher, u)
		b, err := json.Marshal(a.Results)
		if err != nil {
			t.Fatal(err)
		}
		var back pagecheck.Results
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, a.Results) {
			t.Errorf("%s: results changed in a JSON round trip:\n%#v\n%#v", u, a.Results, back)
		}
	}
}

func TestRedirectChain(t *testing.T) {
	s := newFixtureSite(t, fetch.Config{})
	fd, a := analyse(t, s.fetcher, s.good.URL+"/r1")
	want := []string{s.good.URL + "/r1", s.good.URL + "/r2", s.good.URL + "/r3"}
	if !slices.Equal(fd.Page.Redirects, want) {
		t.Errorf("redirects = %v, want %v", fd.Page.Redirects, want)
	}
	if fd.Page.URL != s.good.URL+"/" || a.URL != s.good.URL+"/" || fd.RequestedURL != s.good.URL+"/r1" {
		t.Errorf("final URL %q, analysis URL %q, requested %q", fd.Page.URL, a.URL, fd.RequestedURL)
	}
	if a.Score != 100 {
		t.Errorf("score after redirects = %d, want 100", a.Score)
	}
	if fd.Page.RemoteAddr != hostPort(t, s.good.URL) {
		t.Errorf("remote addr = %q", fd.Page.RemoteAddr)
	}
	if fd, _ := analyse(t, s.fetcher, s.good.URL+"/hop/10"); len(fd.Page.Redirects) != 10 {
		t.Errorf("10 redirects: followed %d", len(fd.Page.Redirects))
	}
	_, err := s.fetcher.Fetch(context.Background(), s.good.URL+"/hop/11", nil)
	var fe *webpage.FetchError
	if !errors.As(err, &fe) || fe.Refused || !strings.Contains(fe.Reason, "more than 10 redirects") {
		t.Errorf("11 redirects: err = %v", err)
	}
	// The final URL is stored with the report: a redirect beyond the
	// length of an accepted URL is not followed.
	_, err = s.fetcher.Fetch(context.Background(), s.good.URL+"/long-redirect", nil)
	if !errors.As(err, &fe) || fe.Refused || !strings.Contains(fe.Reason, "a redirect to a URL longer than 2048 characters") {
		t.Errorf("redirect to an overlong URL: err = %v", err)
	}
}

func TestContentCodings(t *testing.T) {
	s := newFixtureSite(t, fetch.Config{})
	plain, pa := analyse(t, s.fetcher, s.good.URL+"/plain")
	if c := byID(t, pa)["text_compression"]; c.Passed || strings.Join(c.Errors, ",") != "missing" {
		t.Errorf("uncompressed page: text_compression %v %v", c.Passed, c.Errors)
	}
	for _, tc := range []struct{ path, coding string }{{"/", "gzip"}, {"/br", "br"}, {"/deflate", "deflate"}} {
		fd, a := analyse(t, s.fetcher, s.good.URL+tc.path)
		if fd.Page.Encoding != tc.coding {
			t.Errorf("%s: encoding %q, want %q", tc.path, fd.Page.Encoding, tc.coding)
		}
		if !bytes.Equal(fd.Page.Body, plain.Page.Body) {
			t.Errorf("%s: decoded body differs from the plain one (%d vs %d bytes)", tc.path, len(fd.Page.Body), len(plain.Page.Body))
		}
		if fd.Page.WireBytes >= int64(len(fd.Page.Body)) || fd.Page.WireBytes <= 0 {
			t.Errorf("%s: %d bytes on the wire for %d decoded", tc.path, fd.Page.WireBytes, len(fd.Page.Body))
		}
		if c := byID(t, a)["text_compression"]; !c.Passed || c.Value != tc.coding {
			t.Errorf("%s: text_compression %v value %v", tc.path, c.Passed, c.Value)
		}
	}
}

func TestCharsetsAreDecoded(t *testing.T) {
	s := newFixtureSite(t, fetch.Config{})
	for _, tc := range []struct{ path, title, charset string }{
		{"/latin1", "Café crème brûlée", "ISO-8859-1"},
		{"/latin1-meta", "Naïve café", "iso-8859-1"},
	} {
		fd, a := analyse(t, s.fetcher, s.poor.URL+tc.path)
		if !utf8.Valid(fd.Page.Body) {
			t.Errorf("%s: body is not UTF-8", tc.path)
		}
		checks := byID(t, a)
		if got := checks["title"].Value; got != tc.title {
			t.Errorf("%s: title %q, want %q", tc.path, got, tc.title)
		}
		if c := checks["charset"]; !c.Passed || c.Value != tc.charset {
			t.Errorf("%s: charset check %v %v, want %q", tc.path, c.Passed, c.Value, tc.charset)
		}
	}
}

func TestHugePageIsTruncatedAndSaysSo(t *testing.T) {
	s := newFixtureSite(t, fetch.Config{})
	fd, a := analyse(t, s.fetcher, s.poor.URL+"/huge")
	if !fd.Page.Truncated || int64(len(fd.Page.Body)) > fetch.DefaultMaxBytes || len(fd.Page.Body) < fetch.DefaultMaxBytes-4 {
		t.Errorf("truncated=%v, %d bytes kept (cap %d)", fd.Page.Truncated, len(fd.Page.Body), fetch.DefaultMaxBytes)
	}
	if !utf8.Valid(fd.Page.Body) {
		t.Error("the cut left a partial UTF-8 sequence")
	}
	checks := byID(t, a)
	if c := checks["page_size"]; c.Passed || strings.Join(c.Errors, ",") != "too_large,truncated" || !strings.Contains(c.Message, "first") {
		t.Errorf("page_size = %v %v %q", c.Passed, c.Errors, c.Message)
	}
	if got := checks["title"].Value; got != "Huge" {
		t.Errorf("title of the truncated page = %v", got)
	}
}

func TestSlowPageFailsLoadTime(t *testing.T) {
	s := newFixtureSite(t, fetch.Config{})
	_, a := analyse(t, s.fetcher, s.poor.URL+"/slow")
	c := byID(t, a)["load_time"]
	if secs, _ := c.Value.(float64); c.Passed || secs < 2 || strings.Join(c.Errors, ",") != "too_slow" {
		t.Errorf("load_time = %v %v value %v", c.Passed, c.Errors, c.Value)
	}
}

func TestDeadlineCoversTheFetch(t *testing.T) {
	s := newFixtureSite(t, fetch.Config{Timeout: 300 * time.Millisecond})
	start := time.Now()
	_, err := s.fetcher.Fetch(context.Background(), s.poor.URL+"/hang", nil)
	var fe *webpage.FetchError
	if !errors.As(err, &fe) || fe.Refused || !strings.Contains(fe.Reason, "no response within 300ms") {
		t.Errorf("err = %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("gave up after %s", d)
	}
}

func TestRobotsDisallowAndSitemap(t *testing.T) {
	s := newFixtureSite(t, fetch.Config{})
	for _, tc := range []struct {
		path, errs string
		value      any
	}{
		{"/private/page", "disallowed", "Disallow: /private/"},
		{"/private/open", "", nil}, // the longer Allow rule wins
		{"/", "", nil},
	} {
		fd, a := analyse(t, s.fetcher, s.good.URL+tc.path)
		if fd.Robots == nil || fd.Robots.Status != 200 {
			t.Fatalf("%s: robots.txt not fetched: %+v", tc.path, fd.Robots)
		}
		checks := byID(t, a)
		if c := checks["robots"]; strings.Join(c.Errors, ",") != tc.errs || c.Value != tc.value {
			t.Errorf("%s: robots = %v %v value %v", tc.path, c.Passed, c.Errors, c.Value)
		}
		if c := checks["sitemap"]; !c.Passed {
			t.Errorf("%s: sitemap check failed: %v", tc.path, c.Message)
		}
	}
}

// TestErrorStatusIsAnalysed: a target answering 5xx is still analysed; its
// http_status check fails.
func TestErrorStatusIsAnalysed(t *testing.T) {
	s := newFixtureSite(t, fetch.Config{})
	fd, a := analyse(t, s.fetcher, s.poor.URL+"/error")
	c := byID(t, a)["http_status"]
	if fd.Page.Status != 500 || c.Passed || c.Value != 500.0 || strings.Join(c.Errors, ",") != "server_error" {
		t.Errorf("status %d, http_status = %v %v value %v", fd.Page.Status, c.Passed, c.Errors, c.Value)
	}
}

func TestMixedContentAndWeakHSTS(t *testing.T) {
	s := newFixtureSite(t, fetch.Config{})
	_, a := analyse(t, s.fetcher, s.good.URL+"/mixed")
	checks := byID(t, a)
	want := []any{"http://cdn.example/app.js", "http://img.example/a.webp"}
	if c := checks["mixed_content"]; c.Passed || !reflect.DeepEqual(c.Value, want) {
		t.Errorf("mixed_content = %v value %v, want %v", c.Passed, c.Value, want)
	}
	if c := checks["hsts"]; c.Passed || strings.Join(c.Errors, ",") != "too_short" {
		t.Errorf("hsts = %v %v", c.Passed, c.Errors)
	}
}

package fetch_test

import (
	"bufio"
	"io"
	"log"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/pagecheck"
)

// The audit fixtures are pages of real-world shapes, written by hand, one
// file per rule, in testdata/audit: each is a raw HTTP response (status
// line, headers, blank line, body) in which {{origin}} stands for the test
// server's origin. A fixture NAME.http is served at /NAME, one in
// testdata/audit/linked at /linked/NAME (the pages the fixtures link to:
// alternates, moved canonical URLs), robots.txt.http at /robots.txt; any
// other path answers 404. A body declared Content-Encoding: gzip is
// compressed as it is served.

// shortPage is the verdict every fixture shares: they are a few paragraphs
// long.
var shortPage = map[string]string{"content_length": "too_short"}

// auditFixtures gives, for each fixture, the failure codes of the checks it
// fails (besides shortPage); every other check must pass. offending, when
// set, is the number of entries a failed check blames; says, text a check's
// message holds (to tell a pass for the right reason).
var auditFixtures = []struct {
	name      string
	fail      map[string]string
	offending map[string]int
	says      map[string]string
}{
	// A well-built page: the control.
	{name: "baseline"},

	// Headers count as much as markup.
	{name: "header-canonical"}, // the canonical URL only in a Link header
	{name: "canonical-agree"},  // the same canonical URL in the markup and the Link header
	{name: "header-canonical-conflict", fail: map[string]string{"canonical": "conflict"}, offending: map[string]int{"canonical": 2}},
	// Alternates in the Link header; the Bengali version links back in its own.
	{name: "header-hreflang", says: map[string]string{"hreflang": "2 hreflang alternates are consistent; the 1 fetched link back"}},
	// The Link header names another Hindi version than the markup (both on
	// hosts that do not resolve here: unverified, not failed).
	{name: "header-hreflang-conflict", fail: map[string]string{"hreflang": "duplicate"}, offending: map[string]int{"hreflang": 1},
		says: map[string]string{"hreflang": "(duplicate)"}},
	{name: "x-robots-googlebot-noindex", fail: map[string]string{"noindex": "noindex"}, offending: map[string]int{"noindex": 1}},
	{name: "x-robots-unavailable-after", fail: map[string]string{"noindex": "unavailable"}},
	// A noindex for a crawler that is not a search engine's; max-snippet in a header.
	{name: "x-robots-other-crawler", says: map[string]string{"robots_directives": "4 robots directive(s) are valid"}},

	// Content validity, not just presence.
	{name: "viewport-without-width", fail: map[string]string{"meta_viewport": "no_width"}},
	{name: "viewport-blocks-zoom", fail: map[string]string{"meta_viewport": "blocks_zoom"}, offending: map[string]int{"meta_viewport": 1}},
	{name: "canonical-to-alternate", fail: map[string]string{"canonical": "hreflang_alternate"}},
	{name: "canonical-to-root", fail: map[string]string{"canonical": "root"}},
	{name: "canonical-redirected", fail: map[string]string{"canonical": "redirects"}},
	{name: "canonical-not-found", fail: map[string]string{"canonical": "error_status"}},
	{name: "hreflang-invalid-codes", fail: map[string]string{"hreflang": "invalid_code,relative"}, offending: map[string]int{"hreflang": 4}},
	{name: "hreflang-no-return-link", fail: map[string]string{"hreflang": "no_return_link"}, offending: map[string]int{"hreflang": 1}},
	{name: "hreflang-broken-alternates", fail: map[string]string{"hreflang": "alternate_error,alternate_redirects"}, offending: map[string]int{"hreflang": 2}},
	// Upper case, every directive that takes a value, a crawler's own meta.
	{name: "robots-meta-directives", says: map[string]string{"robots_directives": "6 robots directive(s) are valid"}},
	{name: "robots-meta-none", fail: map[string]string{"noindex": "noindex"}},
	{name: "robots-meta-invalid", fail: map[string]string{"robots_directives": "invalid_value,unknown_directive"}, offending: map[string]int{"robots_directives": 4}},
	{name: "robots-meta-conflict", fail: map[string]string{"noindex": "noindex", "robots_directives": "conflict"}},
	{name: "jsonld-invalid-json", fail: map[string]string{"structured_data": "invalid_json"}, offending: map[string]int{"structured_data": 1}},
	{name: "jsonld-missing-context-and-type", fail: map[string]string{"structured_data": "missing_context,missing_type"}, offending: map[string]int{"structured_data": 2}},
	{name: "jsonld-graph"},

	// Checks Lighthouse has, read without running scripts.
	// A named target, a role="button" and mailto: are not failures (the
	// address fails plaintext_email).
	{name: "anchors-not-crawlable", fail: map[string]string{"crawlable_anchors": "javascript_href,no_href,file_href", "plaintext_email": "exposed"}, offending: map[string]int{"crawlable_anchors": 3}},
	{name: "link-text-generic", fail: map[string]string{"link_text": "generic_text"}, offending: map[string]int{"link_text": 2}},
	{name: "link-text-hindi", fail: map[string]string{"link_text": "generic_text"}, offending: map[string]int{"link_text": 2}},
	{name: "link-text-indic", fail: map[string]string{"link_text": "generic_text"}, offending: map[string]int{"link_text": 4}},
	{name: "plugins-flash-and-java", fail: map[string]string{"plugins": "plugins", "deprecated_html": "deprecated_tags"}, offending: map[string]int{"plugins": 3}},
	{name: "font-size-small-css", fail: map[string]string{"font_size": "too_small"}, says: map[string]string{"font_size": "11px"}},
	{name: "font-size-inline-style", fail: map[string]string{"font_size": "too_small", "inline_css": "inline_styles"}},
	{name: "font-size-unreadable", says: map[string]string{"font_size": "cannot be computed"}}, // calc() with vw
	// The image sized by its style attribute passes (and fails inline_css).
	{name: "images-without-dimensions", fail: map[string]string{"image_dimensions": "unsized", "inline_css": "inline_styles"}, offending: map[string]int{"image_dimensions": 2}},
	{name: "lang-invalid", fail: map[string]string{"language": "invalid_code"}},
}

// fixtureServer serves testdata/audit over HTTPS.
func fixtureServer(t *testing.T) *httptest.Server {
	t.Helper()
	files := map[string]string{}
	for _, pattern := range []string{"testdata/audit/*.http", "testdata/audit/linked/*.http"} {
		names, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			path := "/" + strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(name), "testdata/audit/"), ".http")
			files[path] = name
		}
	}
	var srv *httptest.Server
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Error(err)
			return
		}
		resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(strings.ReplaceAll(string(raw), "{{origin}}", srv.URL))), r)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			return
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			return
		}
		maps.Copy(w.Header(), resp.Header)
		if resp.Header.Get("Content-Encoding") == "gzip" {
			body = compress(t, "gzip", body)
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(body)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

// TestAuditFixtures analyses every fixture through the fetcher (headers,
// canonical probe and alternates included) and checks the verdict of every
// check, the advice of every failure and what it blames.
func TestAuditFixtures(t *testing.T) {
	srv := fixtureServer(t)
	f, err := fetch.New(fetch.Config{
		AllowTargets: []string{hostPort(t, srv.URL)},
		TLS:          srv.Client().Transport.(*http.Transport).TLSClientConfig,
		Resolver:     &fakeResolver{}, // other hosts do not resolve
		Log:          quiet,
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, fx := range auditFixtures {
		seen[fx.name] = true
		t.Run(fx.name, func(t *testing.T) {
			_, a := analyse(t, f, srv.URL+"/"+fx.name)
			want := maps.Clone(shortPage)
			maps.Copy(want, fx.fail)
			for id, c := range byID(t, a) {
				if says, ok := fx.says[id]; ok && !strings.Contains(c.Message, says) {
					t.Errorf("%s: message %q, want it to say %q", id, c.Message, says)
				}
				if got := strings.Join(c.Errors, ","); got != want[id] {
					t.Errorf("%s: errors %q, want %q (%s; value %v; offending %q)", id, got, want[id], c.Message, c.Value, c.Offending)
				}
				if c.Passed {
					if c.Advice != "" || len(c.Offending) > 0 {
						t.Errorf("%s passed with advice %q, offending %q", id, c.Advice, c.Offending)
					}
					continue
				}
				for _, code := range c.Errors {
					if a, ok := pagecheck.AdviceFor(id, code); !ok || !strings.Contains(c.Advice, a) {
						t.Errorf("%s: no advice of its own for %s (advice %q)", id, code, c.Advice)
					}
				}
				if n, ok := fx.offending[id]; ok && len(c.Offending)+c.OffendingOmitted != n {
					t.Errorf("%s blames %d (%q + %d omitted), want %d", id, len(c.Offending)+c.OffendingOmitted, c.Offending, c.OffendingOmitted, n)
				}
			}
		})
	}
	// Every fixture file is in the table.
	names, _ := filepath.Glob("testdata/audit/*.http")
	for _, name := range names {
		if base := strings.TrimSuffix(filepath.Base(name), ".http"); base != "robots.txt" && !seen[base] {
			t.Errorf("fixture %s has no expected verdicts", name)
		}
	}
}

package sqlstore

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/s2"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/tests/crawlsite"
	"github.com/pinsight/pinsight/tests/fixturecrawl"
)

var updateDict = flag.Bool("update", false, "write the audit dictionary of auditDictMarker (once: a stored one is frozen) from the fixture crawl")

// dictHost stands for the fixture site's host (a loopback port that
// changes from run to run) in the dictionary.
const dictHost = "www.example.com"

// dictSampleFile holds an audit of the fixture crawl and its stored form
// when the dictionary of marker was made (TestAuditDictionaryDecodes).
func dictSampleFile(marker string) string { return "testdata/audit_dict_" + marker + ".json" }

// dictSample is dictSampleFile's content.
type dictSample struct {
	Audit  json.RawMessage `json:"audit"`
	Stored []byte          `json:"stored"` // in base64
}

// TestAuditDictionaryFromTheFixtureCrawl, with -update (go generate),
// writes the dictionary of auditDictMarker from the audits of the fixture
// site (tests/crawlsite): the crawler (app/crawls, over the memory store)
// finds the audited pages; each is fetched and audited again as reports
// are (adapters/fetch, pagecheck.Analyse) with a fixed time and load
// time, so that the same pagecheck writes the same dictionary. It writes
// only an empty file (a new marker's): a dictionary in use never changes
// (TestAuditDictionaryDecodes checks it).
func TestAuditDictionaryFromTheFixtureCrawl(t *testing.T) {
	if !*updateDict {
		t.Skip("writes the dictionary with -update (go generate)")
	}
	name := "crawls_results_dict" + strings.TrimPrefix(auditDictMarker, "d") + ".s2dict"
	if st, err := os.Stat(name); err != nil {
		t.Fatal(err)
	} else if st.Size() > 0 {
		t.Skipf("%s is frozen (stored audits name it): for a new one, embed an empty file of the next marker and make it auditDictMarker", name)
	}
	site := crawlsite.New(crawlsite.Options{Pages: fixturecrawl.Pages})
	srv := fixturecrawl.Serve(t, site)
	urls := auditedURLs(t, site, srv)
	f, err := fetch.New(fetch.Config{AllowTargets: []string{strings.TrimPrefix(srv.URL, "http://")}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	audits := make([][]byte, len(urls))
	for i, u := range urls {
		page, err := f.Fetch(context.Background(), u, nil)
		if err != nil {
			t.Fatal(err)
		}
		page.At, page.Page.Elapsed = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 200*time.Millisecond
		raw, err := appendResultsJSON(nil, pagecheck.Analyse(page, pagecheck.DefaultWeights).Results)
		if err != nil {
			t.Fatal(err)
		}
		audits[i] = bytes.ReplaceAll(raw, []byte(strings.TrimPrefix(srv.URL, "http://")), []byte(dictHost))
	}
	d := buildAuditDict(t, audits)
	if err := os.WriteFile(name, d.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// The sample: an audit of the crawl, as the crawl stored it.
	sample := audits[len(audits)/2]
	var res pagecheck.Results
	if err := json.Unmarshal(sample, &res); err != nil {
		t.Fatal(err)
	}
	auditDicts[auditDictMarker] = s2.NewDict(d.Bytes())
	auditDict = auditDicts[auditDictMarker]
	stored, err := encodeResults(res)
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(dictSample{Audit: sample, Stored: stored}, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dictSampleFile(auditDictMarker), append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes from %d audits", name, len(d.Bytes()), len(audits))
}

// auditedURLs are the URLs whose audit a crawl of site (served by srv)
// stores, sorted.
func auditedURLs(t *testing.T, site *crawlsite.Site, srv *fixturecrawl.Server) []string {
	reports := memory.NewReportStore()
	store := memory.NewCrawlStore(reports)
	jobs := memory.NewJobs(reports, ports.JobSettings{})
	jobs.Crawls(store)
	rec := &auditRecorder{CrawlStore: store}
	e := fixturecrawl.Env{Store: rec, Queue: jobs, UserID: 1}
	_, job := fixturecrawl.Create(t, e, srv.URL, 8)
	fixturecrawl.RunToEnd(t, fixturecrawl.New(t, e, srv, crawls.Config{}), job)
	slices.Sort(rec.urls)
	urls := slices.Compact(rec.urls)
	if len(urls) < site.Pages()/2 {
		t.Fatalf("the crawl audited %d pages of %d", len(urls), site.Pages())
	}
	return urls
}

// auditRecorder is a crawl store that notes the URLs of the audits it
// records.
type auditRecorder struct {
	ports.CrawlStore
	mu   sync.Mutex
	urls []string
}

func (r *auditRecorder) RecordPages(ctx context.Context, id int64, found []ports.FrontierURL, pages []ports.FetchedPage) error {
	r.mu.Lock()
	for _, p := range pages {
		if p.Results != nil {
			r.urls = append(r.urls, p.Page.URL)
		}
	}
	r.mu.Unlock()
	return r.CrawlStore.RecordPages(ctx, id, found, pages)
}

// dictPerKind is how many distinct checks of one id, outcome and errors
// the dictionary holds at most: a few of each variety fill it better than
// many of the most frequent.
const dictPerKind = 4

// buildAuditDict is the dictionary of audits: their distinct checks (as
// JSON, each followed by a comma), the most frequent first (ties in byte
// order) and at most dictPerKind of a kind, as many as fit, the most
// frequent at the end (nearest the audit, where S2's offsets are
// shortest); its first repeat offset is where an audit's first check
// begins.
func buildAuditDict(t *testing.T, audits [][]byte) *s2.Dict {
	count := map[string]int{}
	var first []byte
	for _, a := range audits {
		var m map[string][]json.RawMessage
		if err := json.Unmarshal(a, &m); err != nil {
			t.Fatal(err)
		}
		for _, checks := range m {
			for _, c := range checks {
				count[string(c)]++
			}
		}
		if first == nil {
			first = a[:min(len(a), 64)]
		}
	}
	checks := make([]string, 0, len(count))
	for c := range count {
		checks = append(checks, c)
	}
	slices.SortFunc(checks, func(a, b string) int {
		return cmp.Or(cmp.Compare(count[b], count[a]), strings.Compare(a, b))
	})
	perKind := map[string]int{}
	var picked []string
	size := 0
	for _, c := range checks {
		var k struct {
			ID     string   `json:"id"`
			Passed bool     `json:"passed"`
			Errors []string `json:"errors"`
		}
		if err := json.Unmarshal([]byte(c), &k); err != nil {
			t.Fatal(err)
		}
		kind := fmt.Sprint(k.ID, k.Passed, k.Errors)
		if perKind[kind] >= dictPerKind || size+len(c)+1 > s2.MaxDictSize {
			continue
		}
		perKind[kind]++
		picked = append(picked, c)
		size += len(c) + 1
	}
	var hist []byte
	for _, c := range slices.Backward(picked) {
		hist = append(append(hist, c...), ',')
	}
	d := s2.MakeDict(hist, first)
	if d == nil {
		t.Fatalf("no dictionary of %d bytes", len(hist))
	}
	return d
}

package porttest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webpage"
)

// HostileTitleBytes is the length of the title of the page BenchmarkReportList
// analyses: 2 MiB, what a hostile site can serve.
const HostileTitleBytes = 2 << 20

// HostileReport is a report (of user 1: callers set UserID) as the analyser makes it of a page
// whose <title> (and <h1>) hold HostileTitleBytes of text, and the size of
// its results as JSON.
func HostileReport() (report.Report, int) {
	title := strings.Repeat("Pinsight<", HostileTitleBytes/len("Pinsight<"))
	text := func(s string) *webpage.Node { return &webpage.Node{Type: webpage.TextNode, Text: s} }
	el := func(tag string, children ...*webpage.Node) *webpage.Node {
		return &webpage.Node{Type: webpage.ElementNode, Tag: tag, Children: children}
	}
	page := &webpage.Fetched{RequestedURL: "https://www.example.com/", Page: webpage.Response{URL: "https://www.example.com/", Status: 200,
		Header: map[string][]string{"Content-Type": {"text/html"}}, Body: []byte("<title>…</title>"), Elapsed: 300 * time.Millisecond},
		Document: &webpage.Node{Type: webpage.DocumentNode, Children: []*webpage.Node{
			el("html", el("head", el("title", text(title))), el("body", el("h1", text(title)))),
		}}}
	r := report.Report{UserID: 1, Privacy: report.Private, CreatedAt: reportEpoch, UpdatedAt: reportEpoch}
	if err := r.Apply(pagecheck.Analyse(page, pagecheck.DefaultWeights), reportEpoch); err != nil {
		panic(err)
	}
	raw, err := json.Marshal(r.Results)
	if err != nil {
		panic(err)
	}
	return r, len(raw)
}

// BenchmarkReportList measures what one GET /reports?per_page=100 costs a
// store: listing 100 of user 1's reports, each the analysis of a page with
// a 2 MiB title (HostileReport). It reports the JSON size of one report's
// results as report_bytes; run with -benchmem for the bytes a list
// allocates. newStores returns an empty store with its account store.
func BenchmarkReportList(b *testing.B, newStores func(testing.TB) ReportStores) {
	st := newStores(b)
	s, u := st.Reports, newOwners(b, st.Accounts)
	r, size := HostileReport()
	r.UserID = u[1]
	ctx := context.Background()
	for i := range 100 {
		r.URL = fmt.Sprintf("https://www.example.com/%d", i)
		if _, err := s.CreateReport(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
	q := report.ReportQuery{SortBy: report.SortReportsByID, Desc: true, Page: paging.Page{Number: 1, PerPage: 100}}
	for b.Loop() {
		got, total, err := s.Reports(ctx, u[1], q)
		if err != nil || len(got) != 100 || total != 100 {
			b.Fatalf("Reports = %d items (total %d), %v", len(got), total, err)
		}
	}
	b.ReportMetric(float64(size), "report_bytes")
}

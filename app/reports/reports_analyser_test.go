package reports_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// pageFetcher serves one hand-built page for every URL.
type pageFetcher struct{ page *webpage.Fetched }

func (f pageFetcher) Fetch(context.Context, string, ports.Admit) (*webpage.Fetched, error) {
	return f.page, nil
}

// TestReportsWithRealAnalyser runs the lifecycle with the production
// analyser over a fake fetcher: the stored report is exactly what
// pagecheck.Analyse makes of the page.
func TestReportsWithRealAnalyser(t *testing.T) {
	page := &webpage.Fetched{
		RequestedURL: "http://example.com",
		Page: webpage.Response{URL: "https://www.example.com/", Status: 200,
			Header: map[string][]string{"Content-Type": {"text/html; charset=utf-8"}},
			Body:   []byte("<!doctype html><html lang=en><head><title>Example</title></head><body><h1>Hi</h1></body></html>")},
		Document: &webpage.Node{Type: webpage.DocumentNode, Children: []*webpage.Node{{Type: webpage.ElementNode, Tag: "html", Children: []*webpage.Node{
			{Type: webpage.ElementNode, Tag: "head", Children: []*webpage.Node{{Type: webpage.ElementNode, Tag: "title", Children: []*webpage.Node{{Type: webpage.TextNode, Text: "Example"}}}}},
			{Type: webpage.ElementNode, Tag: "body", Children: []*webpage.Node{{Type: webpage.ElementNode, Tag: "h1", Children: []*webpage.Node{{Type: webpage.TextNode, Text: "Hi"}}}}},
		}}}},
	}
	want := pagecheck.Analyse(page, pagecheck.DefaultWeights)
	rs := reports.New(memory.NewReportStore(), reports.NewAnalyser(pageFetcher{page}, reports.AnalyserConfig{}), cheapPasswords)
	r, err := rs.Create(context.Background(), 1, reports.NewReport{URL: "http://example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if r.URL != want.URL || r.Project != "example.com" || r.Score != want.Score || r.Rating != want.Rating {
		t.Errorf("report = %+v, analysis %+v", r, want)
	}
	if len(r.Results) != len(want.Results) || (len(want.Results) > 0 && reflect.DeepEqual(r.Results, pagecheck.Results{})) {
		t.Errorf("results = %v, want %v", r.Results, want.Results)
	}
	for cat, checks := range want.Results {
		if len(r.Results[cat]) != len(checks) {
			t.Errorf("%s: %d checks stored, %d made", cat, len(r.Results[cat]), len(checks))
		}
	}
}

// TestReanalysisCountsAgainstTheDailyQuota: creating and re-analysing
// reports draw on one daily quota per user; over it, both are a
// QuotaError and the report is left as it was.
func TestReanalysisCountsAgainstTheDailyQuota(t *testing.T) {
	an := reports.NewAnalyser(&gatedFetcher{}, reports.AnalyserConfig{UserDaily: ratelimit.Limit{Requests: 2, Window: 24 * time.Hour},
		HostLimit: reports.NoLimit, AddressLimit: reports.NoLimit, Limiter: fixedLimiter()})
	rs := reports.New(memory.NewReportStore(), an, cheapPasswords)
	ctx := context.Background()
	r, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://example.com/"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rs.Update(ctx, 1, r.ID, reports.ReportUpdate{Reanalyse: true}); err != nil {
		t.Fatalf("first re-analysis: %v", err)
	}
	var qe *reports.QuotaError
	if _, err := rs.Update(ctx, 1, r.ID, reports.ReportUpdate{Reanalyse: true}); !errors.As(err, &qe) || !qe.Daily {
		t.Errorf("re-analysis over the quota: err = %v, want a daily QuotaError", err)
	}
	if _, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://example.org/"}); !errors.As(err, &qe) || !qe.Daily {
		t.Errorf("creation over the quota: err = %v, want a daily QuotaError", err)
	}
	if _, err := rs.Create(ctx, 2, reports.NewReport{URL: "https://example.org/"}); err != nil {
		t.Errorf("another user: %v", err)
	}
}

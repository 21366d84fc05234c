package report_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
)

func TestNewReportQuery(t *testing.T) {
	q, err := report.NewReportQuery(report.ReportParams{})
	want := report.ReportQuery{SortBy: report.SortReportsByID, Desc: true, Page: paging.Page{Number: 1, PerPage: 10}}
	if err != nil || q != want {
		t.Fatalf("defaults = %+v, %v; want %+v", q, err, want)
	}
	q, err = report.NewReportQuery(report.ReportParams{Search: " HTTPS://WWW.Example.com/A ", Project: "WWW.Example.com", Result: "good", SortBy: "result", Sort: "asc", PerPage: 100, Page: 3})
	want = report.ReportQuery{Search: "example.com/a", Project: "example.com", Result: pagecheck.Good, SortBy: report.SortReportsByResult, Page: paging.Page{Number: 3, PerPage: 100}}
	if err != nil || q != want {
		t.Fatalf("full = %+v, %v; want %+v", q, err, want)
	}
	tests := []struct {
		name   string
		params report.ReportParams
		fields []string
	}{
		{"search_by", report.ReportParams{SearchBy: "project"}, []string{"search_by"}},
		{"result", report.ReportParams{Result: "Good"}, []string{"result"}},
		{"sort_by", report.ReportParams{SortBy: "score"}, []string{"sort_by"}},
		{"sort", report.ReportParams{Sort: "up"}, []string{"sort"}},
		{"per_page", report.ReportParams{PerPage: 20}, []string{"per_page"}},
		{"page", report.ReportParams{Page: -1}, []string{"page"}},
		{"NUL in search", report.ReportParams{Search: "a\x00b"}, []string{"search"}},
		{"invalid UTF-8 in project", report.ReportParams{Project: "a\xffb.com"}, []string{"project"}},
		{"all at once", report.ReportParams{SortBy: "x", Sort: "x", PerPage: 1000, Result: "x"}, []string{"sort_by", "sort", "per_page", "result"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := report.NewReportQuery(tt.params)
			var ve *report.ValidationError
			if !errors.As(err, &ve) || len(ve.Fields) != len(tt.fields) {
				t.Fatalf("err = %v, want fields %v", err, tt.fields)
			}
			for _, f := range tt.fields {
				if len(ve.Fields[f]) == 0 {
					t.Errorf("no message for %s: %v", f, ve.Fields)
				}
			}
		})
	}
}

func TestNewProjectQuery(t *testing.T) {
	q, err := report.NewProjectQuery(report.ProjectParams{Search: " Example "})
	want := report.ProjectQuery{Search: "example", SortBy: report.SortProjectsByCreatedAt, Desc: true, Page: paging.Page{Number: 1, PerPage: 10}}
	if err != nil || q != want {
		t.Fatalf("= %+v, %v; want %+v", q, err, want)
	}
	for _, p := range []report.ProjectParams{{SearchBy: "url"}, {SortBy: "id"}, {Sort: "DESC"}, {PerPage: 5}, {Page: -2}, {Search: "\x00"}, {Search: "\xfe"}} {
		if _, err := report.NewProjectQuery(p); err == nil {
			t.Errorf("NewProjectQuery(%+v) succeeded", p)
		}
	}
}

func TestPaging(t *testing.T) {
	p := paging.Page{Number: 3, PerPage: 10}
	if p.Offset() != 20 || (paging.Page{Number: 1 << 62, PerPage: 100}).Offset() < 0 {
		t.Errorf("Offset = %d", p.Offset())
	}
	for total, want := range map[int]int{0: 1, 1: 1, 10: 1, 11: 2, 100: 10} {
		if got := p.LastPage(total); got != want {
			t.Errorf("LastPage(%d) = %d, want %d", total, got, want)
		}
	}
}

func TestReportQueryMatchAndOrder(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	reports := []report.Report{
		{ID: 1, URL: "https://www.example.com/a", Project: "example.com", Score: 50, Rating: pagecheck.Decent, GeneratedAt: t0.Add(3 * time.Hour)},
		{ID: 2, URL: "http://b.org/", Project: "b.org", Score: 90, Rating: pagecheck.Good, GeneratedAt: t0.Add(1 * time.Hour)},
		{ID: 3, URL: "https://example.com/A", Project: "example.com", Score: 50, Rating: pagecheck.Decent, GeneratedAt: t0.Add(2 * time.Hour)},
	}
	ids := func(q report.ReportQuery) []int64 {
		var out []report.Report
		for _, r := range reports {
			if q.Matches(r) {
				out = append(out, r)
			}
		}
		slices.SortFunc(out, q.Compare)
		var got []int64
		for _, r := range out {
			got = append(got, r.ID)
		}
		return got
	}
	tests := []struct {
		params report.ReportParams
		want   []int64
	}{
		{report.ReportParams{}, []int64{3, 2, 1}},
		{report.ReportParams{Sort: "asc"}, []int64{1, 2, 3}},
		{report.ReportParams{Search: "http://example.com/a"}, []int64{3, 1}},
		{report.ReportParams{Search: "WWW.EXAMPLE"}, []int64{3, 1}},
		{report.ReportParams{Search: "b.org/"}, []int64{2}},
		{report.ReportParams{Search: "nothing"}, nil},
		{report.ReportParams{Project: "www.example.com", Sort: "asc"}, []int64{1, 3}},
		{report.ReportParams{Result: "good"}, []int64{2}},
		{report.ReportParams{SortBy: "result"}, []int64{2, 3, 1}},
		{report.ReportParams{SortBy: "result", Sort: "asc"}, []int64{1, 3, 2}},
		{report.ReportParams{SortBy: "generated_at", Sort: "asc"}, []int64{2, 3, 1}},
		{report.ReportParams{SortBy: "url", Sort: "asc"}, []int64{2, 3, 1}},
	}
	for _, tt := range tests {
		q, err := report.NewReportQuery(tt.params)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(q); !slices.Equal(got, tt.want) {
			t.Errorf("%+v: ids = %v, want %v", tt.params, got, tt.want)
		}
	}
}

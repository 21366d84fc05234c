package site_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/site"
)

func TestNewReportQuery(t *testing.T) {
	q, err := site.NewReportQuery(site.ReportParams{})
	want := site.ReportQuery{SortBy: site.SortReportsByID, Desc: true, Page: paging.Page{Number: 1, PerPage: 10}}
	if err != nil || q != want {
		t.Fatalf("defaults = %+v, %v; want %+v", q, err, want)
	}
	q, err = site.NewReportQuery(site.ReportParams{Search: " HTTPS://WWW.Example.com/A ", Project: "WWW.Example.com", Result: "good", SortBy: "result", Sort: "asc", PerPage: 100, Page: 3})
	want = site.ReportQuery{Search: "example.com/a", Project: "example.com", Result: site.Good, SortBy: site.SortReportsByResult, Page: paging.Page{Number: 3, PerPage: 100}}
	if err != nil || q != want {
		t.Fatalf("full = %+v, %v; want %+v", q, err, want)
	}
	tests := []struct {
		name   string
		params site.ReportParams
		fields []string
	}{
		{"search_by", site.ReportParams{SearchBy: "project"}, []string{"search_by"}},
		{"result", site.ReportParams{Result: "Good"}, []string{"result"}},
		{"sort_by", site.ReportParams{SortBy: "score"}, []string{"sort_by"}},
		{"sort", site.ReportParams{Sort: "up"}, []string{"sort"}},
		{"per_page", site.ReportParams{PerPage: 20}, []string{"per_page"}},
		{"page", site.ReportParams{Page: -1}, []string{"page"}},
		{"NUL in search", site.ReportParams{Search: "a\x00b"}, []string{"search"}},
		{"invalid UTF-8 in project", site.ReportParams{Project: "a\xffb.com"}, []string{"project"}},
		{"all at once", site.ReportParams{SortBy: "x", Sort: "x", PerPage: 1000, Result: "x"}, []string{"sort_by", "sort", "per_page", "result"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := site.NewReportQuery(tt.params)
			var ve *site.ValidationError
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
	q, err := site.NewProjectQuery(site.ProjectParams{Search: " Example "})
	want := site.ProjectQuery{Search: "example", SortBy: site.SortProjectsByCreatedAt, Desc: true, Page: paging.Page{Number: 1, PerPage: 10}}
	if err != nil || q != want {
		t.Fatalf("= %+v, %v; want %+v", q, err, want)
	}
	for _, p := range []site.ProjectParams{{SearchBy: "url"}, {SortBy: "id"}, {Sort: "DESC"}, {PerPage: 5}, {Page: -2}, {Search: "\x00"}, {Search: "\xfe"}} {
		if _, err := site.NewProjectQuery(p); err == nil {
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
	reports := []site.Report{
		{ID: 1, URL: "https://www.example.com/a", Project: "example.com", Score: 50, Rating: site.Decent, GeneratedAt: t0.Add(3 * time.Hour)},
		{ID: 2, URL: "http://b.org/", Project: "b.org", Score: 90, Rating: site.Good, GeneratedAt: t0.Add(1 * time.Hour)},
		{ID: 3, URL: "https://example.com/A", Project: "example.com", Score: 50, Rating: site.Decent, GeneratedAt: t0.Add(2 * time.Hour)},
	}
	ids := func(q site.ReportQuery) []int64 {
		var out []site.Report
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
		params site.ReportParams
		want   []int64
	}{
		{site.ReportParams{}, []int64{3, 2, 1}},
		{site.ReportParams{Sort: "asc"}, []int64{1, 2, 3}},
		{site.ReportParams{Search: "http://example.com/a"}, []int64{3, 1}},
		{site.ReportParams{Search: "WWW.EXAMPLE"}, []int64{3, 1}},
		{site.ReportParams{Search: "b.org/"}, []int64{2}},
		{site.ReportParams{Search: "nothing"}, nil},
		{site.ReportParams{Project: "www.example.com", Sort: "asc"}, []int64{1, 3}},
		{site.ReportParams{Result: "good"}, []int64{2}},
		{site.ReportParams{SortBy: "result"}, []int64{2, 3, 1}},
		{site.ReportParams{SortBy: "result", Sort: "asc"}, []int64{1, 3, 2}},
		{site.ReportParams{SortBy: "generated_at", Sort: "asc"}, []int64{2, 3, 1}},
		{site.ReportParams{SortBy: "url", Sort: "asc"}, []int64{2, 3, 1}},
	}
	for _, tt := range tests {
		q, err := site.NewReportQuery(tt.params)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(q); !slices.Equal(got, tt.want) {
			t.Errorf("%+v: ids = %v, want %v", tt.params, got, tt.want)
		}
	}
}

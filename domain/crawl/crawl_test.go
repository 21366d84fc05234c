package crawl_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
)

func TestNewListQuery(t *testing.T) {
	q, err := crawl.NewListQuery(crawl.ListParams{})
	want := crawl.ListQuery{SortBy: crawl.SortByCreatedAt, Desc: true, Page: paging.Page{Number: 1, PerPage: 10}}
	if err != nil || q != want {
		t.Fatalf("defaults = %+v, %v", q, err)
	}
	q, err = crawl.NewListQuery(crawl.ListParams{Status: "running", Search: " WWW.Example.com ", SortBy: "score", Sort: "asc", PerPage: 25, Page: 2})
	want = crawl.ListQuery{Status: crawl.StatusRunning, Search: "example.com", SortBy: crawl.SortByScore, Page: paging.Page{Number: 2, PerPage: 25}}
	if err != nil || q != want {
		t.Fatalf("full = %+v, %v", q, err)
	}
	_, err = crawl.NewListQuery(crawl.ListParams{Status: "done", Search: "\x00", SortBy: "url", Sort: "up", PerPage: 7, Page: -1})
	var ve *report.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) != 6 {
		t.Fatalf("err = %v, want six fields", err)
	}
}

func TestListQueryOrder(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	crawls := []crawl.Crawl{
		{ID: 1, Site: "example.com", Status: crawl.StatusFinished, Score: 80, Progress: crawl.Progress{Crawled: 10}, CreatedAt: t0},
		{ID: 2, Site: "shop.example.com", Status: crawl.StatusRunning, Score: 40, Progress: crawl.Progress{Crawled: 300}, CreatedAt: t0.Add(time.Hour)},
		{ID: 3, Site: "other.org", Status: crawl.StatusFinished, Score: 80, Progress: crawl.Progress{Crawled: 50}, CreatedAt: t0},
	}
	order := func(p crawl.ListParams) []int64 {
		q, err := crawl.NewListQuery(p)
		if err != nil {
			t.Fatal(err)
		}
		var out []crawl.Crawl
		for _, c := range crawls {
			if q.Matches(c) {
				out = append(out, c)
			}
		}
		slices.SortFunc(out, q.Compare)
		ids := []int64{}
		for _, c := range out {
			ids = append(ids, c.ID)
		}
		return ids
	}
	tests := []struct {
		p    crawl.ListParams
		want []int64
	}{
		{crawl.ListParams{}, []int64{2, 3, 1}},
		{crawl.ListParams{SortBy: "pages", Sort: "asc"}, []int64{1, 3, 2}},
		{crawl.ListParams{SortBy: "score"}, []int64{3, 1, 2}},
		{crawl.ListParams{Status: "finished"}, []int64{3, 1}},
		{crawl.ListParams{Search: "example"}, []int64{2, 1}},
	}
	for _, tt := range tests {
		if got := order(tt.p); !slices.Equal(got, tt.want) {
			t.Errorf("%+v = %v, want %v", tt.p, got, tt.want)
		}
	}
}

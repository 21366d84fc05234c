package porttest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// listFixture creates five reports of user 1 and one of user 2 and returns
// user 1's ids in creation order.
func listFixture(t *testing.T, s ports.ReportStore, u owners) []int64 {
	t.Helper()
	specs := []struct {
		url       string
		score     int
		generated time.Duration
	}{
		{"https://www.example.com/a", 85, 3 * time.Hour},
		{"http://example.com/b", 50, 1 * time.Hour},
		{"https://blog.example.com/", 20, 4 * time.Hour},
		{"https://b.org/x", 85, 1 * time.Hour},
		{"https://www.example.com/c", 79, 2 * time.Hour},
	}
	var ids []int64
	for i, sp := range specs {
		r := newReport(u[1], sp.url, sp.score, i, report.Private)
		r.GeneratedAt = reportEpoch.Add(sp.generated)
		ids = append(ids, mustCreate(t, s, r).ID)
		if i == 2 {
			mustCreate(t, s, newReport(u[2], "https://www.example.com/a", 99, i, report.Public))
		}
	}
	return ids
}

func testReportList(t *testing.T, s ports.ReportStore, u owners) {
	ids := listFixture(t, s, u)
	all := paging.Page{Number: 1, PerPage: 100}
	tests := []struct {
		name  string
		q     report.ReportQuery
		want  []int // indexes into ids
		total int
	}{
		{"id desc", report.ReportQuery{SortBy: "id", Desc: true, Page: all}, []int{4, 3, 2, 1, 0}, 5},
		{"id asc", report.ReportQuery{SortBy: "id", Page: all}, []int{0, 1, 2, 3, 4}, 5},
		{"generated_at asc, ties by id", report.ReportQuery{SortBy: "generated_at", Page: all}, []int{1, 3, 4, 0, 2}, 5},
		{"generated_at desc", report.ReportQuery{SortBy: "generated_at", Desc: true, Page: all}, []int{2, 0, 4, 3, 1}, 5},
		{"url asc", report.ReportQuery{SortBy: "url", Page: all}, []int{1, 3, 2, 0, 4}, 5},
		{"url desc", report.ReportQuery{SortBy: "url", Desc: true, Page: all}, []int{4, 0, 2, 3, 1}, 5},
		{"result asc: score, ties by id", report.ReportQuery{SortBy: "result", Page: all}, []int{2, 1, 4, 0, 3}, 5},
		{"result desc", report.ReportQuery{SortBy: "result", Desc: true, Page: all}, []int{3, 0, 4, 1, 2}, 5},
		{"search host", report.ReportQuery{Search: "example.com", SortBy: "id", Desc: true, Page: all}, []int{4, 2, 1, 0}, 4},
		{"search ignores scheme and www", report.ReportQuery{Search: report.URLKey("HTTP://WWW.example.com/A"), SortBy: "id", Page: all}, []int{0}, 1},
		{"search path", report.ReportQuery{Search: report.URLKey("https://example.com/b"), SortBy: "id", Page: all}, []int{1}, 1},
		{"search without match", report.ReportQuery{Search: "nothing", SortBy: "id", Page: all}, nil, 0},
		{"project", report.ReportQuery{Project: "example.com", SortBy: "id", Desc: true, Page: all}, []int{4, 1, 0}, 3},
		{"project is exact", report.ReportQuery{Project: "example", SortBy: "id", Page: all}, nil, 0},
		{"result good", report.ReportQuery{Result: pagecheck.Good, SortBy: "id", Desc: true, Page: all}, []int{3, 0}, 2},
		{"result bad", report.ReportQuery{Result: pagecheck.Bad, SortBy: "id", Page: all}, []int{2}, 1},
		{"project, result and sort", report.ReportQuery{Project: "example.com", Result: pagecheck.Decent, SortBy: "result", Page: all}, []int{1, 4}, 2},
		{"search and result", report.ReportQuery{Search: "example", Result: pagecheck.Good, SortBy: "url", Page: all}, []int{0}, 1},
		{"page 1 of 3", report.ReportQuery{SortBy: "id", Desc: true, Page: paging.Page{Number: 1, PerPage: 2}}, []int{4, 3}, 5},
		{"page 3 of 3", report.ReportQuery{SortBy: "id", Desc: true, Page: paging.Page{Number: 3, PerPage: 2}}, []int{0}, 5},
		{"beyond the last page", report.ReportQuery{SortBy: "id", Desc: true, Page: paging.Page{Number: 4, PerPage: 2}}, nil, 5},
		{"far beyond the last page", report.ReportQuery{SortBy: "id", Page: paging.Page{Number: 1 << 40, PerPage: 100}}, nil, 5},
		{"filtered page", report.ReportQuery{Search: "example.com", SortBy: "url", Page: paging.Page{Number: 2, PerPage: 2}}, []int{0, 4}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total, err := s.Reports(context.Background(), u[1], tt.q)
			if err != nil {
				t.Fatalf("Reports = %v", err)
			}
			var gotIDs, want []int64
			for _, r := range got {
				gotIDs = append(gotIDs, r.ID)
			}
			for _, i := range tt.want {
				want = append(want, ids[i])
			}
			if !slices.Equal(gotIDs, want) || total != tt.total {
				t.Errorf("Reports = %v (total %d), want %v (total %d)", gotIDs, total, want, tt.total)
			}
		})
	}
	if got, total, err := s.Reports(context.Background(), u[3], report.ReportQuery{SortBy: "id", Page: all}); err != nil || len(got) != 0 || total != 0 {
		t.Errorf("Reports(user without reports) = %v, %d, %v", got, total, err)
	}
	// A list carries every field but the results, which it never reads.
	got, _, err := s.Reports(context.Background(), u[1], report.ReportQuery{SortBy: "id", Page: all})
	if err != nil || len(got) != len(ids) {
		t.Fatalf("Reports = %d items, %v", len(got), err)
	}
	for i, r := range got {
		want, err := s.Report(context.Background(), u[1], ids[i])
		if err != nil {
			t.Fatalf("Report = %v", err)
		}
		want.Results = nil
		sameReport(t, "listed report", r, want)
	}
}

func testProjects(t *testing.T, s ports.ReportStore, u owners) {
	listFixture(t, s, u)
	all := paging.Page{Number: 1, PerPage: 100}
	got, total, err := s.Projects(context.Background(), u[1], report.ProjectQuery{SortBy: "project", Page: all})
	if err != nil || total != 3 || len(got) != 3 {
		t.Fatalf("Projects = %+v, %d, %v", got, total, err)
	}
	want := []report.Project{
		{Name: "b.org", Reports: 1, Score: 85, Rating: pagecheck.Good, CreatedAt: reportEpoch.Add(3 * time.Minute)},
		{Name: "blog.example.com", Reports: 1, Score: 20, Rating: pagecheck.Bad, CreatedAt: reportEpoch.Add(2 * time.Minute)},
		// (85 + 50 + 79) / 3 = 71.3: truncated; user 2's report does not count.
		{Name: "example.com", Reports: 3, Score: 71, Rating: pagecheck.Decent, CreatedAt: reportEpoch},
	}
	for i := range want {
		if g := got[i]; g.Name != want[i].Name || g.Reports != want[i].Reports || g.Score != want[i].Score || g.Rating != want[i].Rating || !g.CreatedAt.Equal(want[i].CreatedAt) {
			t.Errorf("project %d = %+v, want %+v", i, g, want[i])
		}
	}
	tests := []struct {
		name  string
		q     report.ProjectQuery
		want  []string
		total int
	}{
		{"created_at desc", report.ProjectQuery{SortBy: "created_at", Desc: true, Page: all}, []string{"b.org", "blog.example.com", "example.com"}, 3},
		{"created_at asc", report.ProjectQuery{SortBy: "created_at", Page: all}, []string{"example.com", "blog.example.com", "b.org"}, 3},
		{"project desc", report.ProjectQuery{SortBy: "project", Desc: true, Page: all}, []string{"example.com", "blog.example.com", "b.org"}, 3},
		{"search", report.ProjectQuery{Search: "example", SortBy: "created_at", Desc: true, Page: all}, []string{"blog.example.com", "example.com"}, 2},
		{"search without match", report.ProjectQuery{Search: "zzz", SortBy: "project", Page: all}, nil, 0},
		{"page 2", report.ProjectQuery{SortBy: "created_at", Desc: true, Page: paging.Page{Number: 2, PerPage: 2}}, []string{"example.com"}, 3},
		{"beyond the last page", report.ProjectQuery{SortBy: "project", Page: paging.Page{Number: 3, PerPage: 2}}, nil, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total, err := s.Projects(context.Background(), u[1], tt.q)
			var names []string
			for _, p := range got {
				names = append(names, p.Name)
			}
			if err != nil || !slices.Equal(names, tt.want) || total != tt.total {
				t.Errorf("Projects = %v (total %d), %v; want %v (total %d)", names, total, err, tt.want, tt.total)
			}
		})
	}
}

func testDeleteProject(t *testing.T, s ports.ReportStore, u owners) {
	ctx := context.Background()
	ids := listFixture(t, s, u)
	if _, err := s.DeleteProject(ctx, u[2], "blog.example.com"); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("DeleteProject(another user's project) err = %v", err)
	}
	n, err := s.DeleteProject(ctx, u[1], "example.com")
	if err != nil || n != 3 {
		t.Fatalf("DeleteProject = %d, %v; want 3", n, err)
	}
	for _, i := range []int{0, 1, 4} {
		if _, err := s.Report(ctx, u[1], ids[i]); !errors.Is(err, report.ErrNotFound) {
			t.Errorf("report %d survived its project: %v", i, err)
		}
	}
	if _, err := s.Report(ctx, u[1], ids[2]); err != nil {
		t.Errorf("blog.example.com went with example.com: %v", err)
	}
	if _, total, _ := s.Reports(ctx, u[2], report.ReportQuery{SortBy: "id", Page: paging.Page{Number: 1, PerPage: 10}}); total != 1 {
		t.Errorf("user 2 has %d reports left, want 1", total)
	}
	if _, err := s.DeleteProject(ctx, u[1], "example.com"); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("second DeleteProject err = %v", err)
	}
	if _, total, _ := s.Projects(ctx, u[1], report.ProjectQuery{SortBy: "project", Page: paging.Page{Number: 1, PerPage: 10}}); total != 2 {
		t.Errorf("%d projects left, want 2", total)
	}
}

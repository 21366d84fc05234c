package porttest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// reportEpoch is the creation time of the suite's first report.
var reportEpoch = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

// sampleResults carries values of every JSON kind, to check they survive
// storage.
func sampleResults() pagecheck.Results {
	return pagecheck.Results{
		pagecheck.SEO: {
			{ID: "title", Title: "Title", Category: pagecheck.SEO, Importance: pagecheck.High, Passed: true, Value: "Hello", Message: "ok"},
			{ID: "headings", Title: "Headings", Category: pagecheck.SEO, Importance: pagecheck.Medium, Value: map[string]any{"h1": float64(2), "list": []any{"a", "b"}}, Errors: []string{"too_many"}, Message: "two h1"},
		},
		pagecheck.Security: {{ID: "https", Title: "HTTPS", Category: pagecheck.Security, Importance: pagecheck.Low, Passed: true, Value: nil}},
	}
}

// newReport builds the n-th report of a user at url with score.
func newReport(userID int64, url string, score, n int, privacy report.Privacy) report.Report {
	r := report.Report{UserID: userID, Privacy: privacy, CreatedAt: reportEpoch.Add(time.Duration(n) * time.Minute)}
	if err := r.Apply(pagecheck.Analysis{URL: url, Score: score, Results: sampleResults()}, reportEpoch.Add(time.Duration(n)*time.Minute)); err != nil {
		panic(err)
	}
	r.UpdatedAt = r.CreatedAt
	return r
}

// ReportStores is what TestReportStore runs on: an empty report store and
// the account store of the same database, through which the suite creates
// the users its reports belong to (it assumes no user ids).
type ReportStores struct {
	Reports  ports.ReportStore
	Accounts ports.AccountStore
	// StoredScreenshots counts the images the store holds, of every
	// report, so the suite tells a deleted screenshot from one only out of
	// reach (nil: not counted).
	StoredScreenshots func(t testing.TB) int
	// DeleteUser deletes user id where the database deletes a user's
	// reports with the user (nil: the store has no users to delete).
	DeleteUser func(t testing.TB, id int64)
}

// owners are the ids of the three users a case's reports belong to:
// owners[1], owners[2] and owners[3] (owners[0] is unused).
type owners [4]int64

// newOwners creates the three users of a case through acc.
func newOwners(t testing.TB, acc ports.AccountStore) owners {
	t.Helper()
	var u owners
	for i := 1; i <= 3; i++ {
		user, err := acc.CreateUser(context.Background(), account.User{Email: fmt.Sprintf("owner%d@example.com", i), CreatedAt: reportEpoch})
		if err != nil {
			t.Fatalf("creating owner %d: %v", i, err)
		}
		u[i] = user.ID
	}
	return u
}

// TestReportStore checks a ReportStore. newStores must return an empty
// report store, with its account store, each time it is called.
func TestReportStore(t *testing.T, newStores func(t *testing.T) ReportStores) {
	run := func(name string, test func(*testing.T, ports.ReportStore, owners)) {
		t.Run(name, func(t *testing.T) {
			st := newStores(t)
			test(t, st.Reports, newOwners(t, st.Accounts))
		})
	}
	run("create and get", testReportCreateGet)
	run("by token", testReportByToken)
	run("list", testReportList)
	run("update", testReportUpdate)
	run("delete", testReportDelete)
	run("ids not reused", testReportIDsNotReused)
	run("microsecond times", testReportMicroseconds)
	run("deadline passed", testReportDeadline)
	run("projects", testProjects)
	run("delete project", testDeleteProject)
	run("concurrency", testReportConcurrency)
	run("start analysis", testStartAnalysis)
	run("idempotency", testIdempotency)
	run("idempotency race", testIdempotencyRace)
	run("schedule cap", testScheduleCap)
	run("rendering", testReportRendering)
	t.Run("screenshots", func(t *testing.T) {
		st := newStores(t)
		testReportScreenshots(t, st, newOwners(t, st.Accounts))
	})
}

// testReportRendering: a report's render mode and what the browser showed
// are kept whole, replaced by an update (a re-analysis without render
// clears them), and a list tells which reports rendered.
func testReportRendering(t *testing.T, s ports.ReportStore, u owners) {
	ctx := context.Background()
	r := newReport(u[1], "https://spa.example/", 70, 0, report.Public)
	r.Render = pagecheck.RenderAuto
	r.Rendering = &pagecheck.Rendering{Rendered: true, Reason: "app_shell", Settled: true, URL: "https://spa.example/#/",
		Compare:      []pagecheck.FieldChange{{Field: "title", Raw: "Loading", Rendered: "Shop", Changed: true}},
		TitleChanged: true,
		Loaded:       pagecheck.Loaded{Requests: 3, Bytes: 2048, Refused: []string{"http://10.0.0.1/x"}, RefusedTotal: 1},
		Lab:          pagecheck.Lab{LCP: pagecheck.Metric{Value: 1200, Grade: pagecheck.GradeGood}, LCPElement: "<img src=hero.jpg>"}}
	plain := mustCreate(t, s, newReport(u[1], "https://plain.example/", 70, 1, report.Public))
	a := mustCreate(t, s, r)
	got, err := s.Report(ctx, u[1], a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Render != pagecheck.RenderAuto || !reflect.DeepEqual(got.Rendering, r.Rendering) {
		t.Errorf("stored render %q, rendering %+v\nwant auto, %+v", got.Render, got.Rendering, r.Rendering)
	}
	items, _, err := s.Reports(ctx, u[1], report.ReportQuery{SortBy: "id", Page: paging.Page{Number: 1, PerPage: 10}})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		rendered := it.Rendering != nil && it.Rendering.Rendered
		if want := it.ID == a.ID; rendered != want || (it.ID == a.ID && it.Render != pagecheck.RenderAuto) {
			t.Errorf("listed report %d: rendered %v, render %q; want rendered %v", it.ID, rendered, it.Render, want)
		}
	}
	if p, err := s.Report(ctx, u[1], plain.ID); err != nil || p.Rendering != nil || p.Render != "" && p.Render != pagecheck.RenderOff {
		t.Errorf("a report never rendered: rendering %+v, render %q, %v", p.Rendering, p.Render, err)
	}
	up, err := s.UpdateReport(ctx, u[1], a.ID, func(r *report.Report) error {
		r.Render, r.Rendering = pagecheck.RenderOff, nil
		return nil
	})
	if err != nil || up.Rendering != nil || up.Render != pagecheck.RenderOff {
		t.Fatalf("update to off: rendering %+v, render %q, %v", up.Rendering, up.Render, err)
	}
	if got, err := s.Report(ctx, u[1], a.ID); err != nil || got.Rendering != nil || got.Render != pagecheck.RenderOff {
		t.Errorf("after the update: rendering %+v, render %q, %v; want none, off", got.Rendering, got.Render, err)
	}
}

func mustCreate(t *testing.T, s ports.ReportStore, r report.Report) report.Report {
	t.Helper()
	got, err := s.CreateReport(context.Background(), r)
	if err != nil {
		t.Fatalf("CreateReport(%s) = %v", r.URL, err)
	}
	return got
}

// sameReport fails unless got equals want in every field.
func sameReport(t *testing.T, what string, got, want report.Report) {
	t.Helper()
	if got.ID != want.ID || got.UserID != want.UserID || got.Token != want.Token || got.URL != want.URL || got.Project != want.Project ||
		got.Score != want.Score || got.Rating != want.Rating || got.Privacy != want.Privacy || got.PasswordHash != want.PasswordHash ||
		!got.GeneratedAt.Equal(want.GeneratedAt) || !got.CreatedAt.Equal(want.CreatedAt) || !got.UpdatedAt.Equal(want.UpdatedAt) {
		t.Errorf("%s = %+v\nwant %+v", what, got, want)
	}
	if !reflect.DeepEqual(got.Results, want.Results) {
		t.Errorf("%s results = %#v\nwant %#v", what, got.Results, want.Results)
	}
}

func testReportCreateGet(t *testing.T, s ports.ReportStore, u owners) {
	ctx := context.Background()
	want := newReport(u[1], "https://www.example.com/a", 84, 0, report.Protected)
	want.PasswordHash = "$argon2id$hash"
	want.Token = "ignored"
	a := mustCreate(t, s, want)
	if a.ID <= 0 || !report.ValidShareToken(a.Token) {
		t.Fatalf("ID = %d, token = %q; want an id and a share token", a.ID, a.Token)
	}
	want.ID, want.Token = a.ID, a.Token
	sameReport(t, "CreateReport", a, want)
	got, err := s.Report(ctx, u[1], a.ID)
	if err != nil {
		t.Fatalf("Report = %v", err)
	}
	sameReport(t, "Report", got, want)
	b := mustCreate(t, s, newReport(u[2], "http://b.org", 10, 1, report.Private))
	c := mustCreate(t, s, newReport(u[1], "http://c.org", 10, 2, report.Private))
	if !(a.ID < b.ID && b.ID < c.ID) {
		t.Errorf("IDs %d, %d, %d do not increase with creation", a.ID, b.ID, c.ID)
	}
	for _, tt := range []struct{ user, id int64 }{{2, a.ID}, {1, b.ID}, {1, c.ID + 1000}} {
		if _, err := s.Report(ctx, tt.user, tt.id); !errors.Is(err, report.ErrNotFound) {
			t.Errorf("Report(user %d, %d) err = %v, want report.ErrNotFound", tt.user, tt.id, err)
		}
	}
}

// testReportByToken: every report gets its own share token, found whoever
// owns it and whatever its privacy; a token never found is ErrNotFound,
// and a deleted report's token finds nothing.
func testReportByToken(t *testing.T, s ports.ReportStore, u owners) {
	ctx := context.Background()
	tokens := map[string]bool{}
	var created []report.Report
	for i, p := range []report.Privacy{report.Public, report.Private, report.Protected, report.Public} {
		r := mustCreate(t, s, newReport(u[1+i%2], fmt.Sprintf("https://p%d.example", i), 50, i, p))
		if !report.ValidShareToken(r.Token) || tokens[r.Token] {
			t.Fatalf("report %d got token %q; want a share token no other report has", r.ID, r.Token)
		}
		tokens[r.Token] = true
		created = append(created, r)
	}
	for _, r := range created {
		got, err := s.ReportByToken(ctx, r.Token)
		if err != nil {
			t.Fatalf("ReportByToken(%s) = %v", r.Token, err)
		}
		sameReport(t, "ReportByToken", got, r)
	}
	for _, token := range []string{report.NewShareToken(), "", "not a token", created[0].Token[:25], "\x00"} {
		if _, err := s.ReportByToken(ctx, token); !errors.Is(err, report.ErrNotFound) {
			t.Errorf("ReportByToken(%q) err = %v, want report.ErrNotFound", token, err)
		}
	}
	if err := s.DeleteReport(ctx, u[1], created[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReportByToken(ctx, created[0].Token); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("ReportByToken(a deleted report's token) err = %v, want report.ErrNotFound", err)
	}
}

func testReportUpdate(t *testing.T, s ports.ReportStore, u owners) {
	ctx := context.Background()
	r := mustCreate(t, s, newReport(u[1], "https://example.com", 40, 0, report.Private))
	later := reportEpoch.Add(time.Hour)
	got, err := s.UpdateReport(ctx, u[1], r.ID, func(x *report.Report) error {
		if x.Token != r.Token {
			t.Errorf("update sees token %q, want %q", x.Token, r.Token)
		}
		x.Privacy, x.PasswordHash, x.UpdatedAt = report.Protected, "h2", later
		x.ID, x.UserID, x.Token, x.CreatedAt = 999, u[2], report.NewShareToken(), later // immutable: ignored
		return x.Apply(pagecheck.Analysis{URL: "https://www.other.example/x", Score: 90, Results: pagecheck.Results{pagecheck.Performance: {{ID: "ttfb", Category: pagecheck.Performance, Importance: pagecheck.High, Passed: true, Value: float64(120)}}}}, later)
	})
	if err != nil {
		t.Fatalf("UpdateReport = %v", err)
	}
	want := r
	want.Privacy, want.PasswordHash, want.UpdatedAt = report.Protected, "h2", later
	want.URL, want.Project, want.Score, want.Rating, want.GeneratedAt = "https://www.other.example/x", "other.example", 90, pagecheck.Good, later
	want.Results = pagecheck.Results{pagecheck.Performance: {{ID: "ttfb", Category: pagecheck.Performance, Importance: pagecheck.High, Passed: true, Value: float64(120)}}}
	sameReport(t, "UpdateReport", got, want)
	stored, _ := s.Report(ctx, u[1], r.ID)
	sameReport(t, "Report after update", stored, want)

	boom := errors.New("boom")
	if _, err := s.UpdateReport(ctx, u[1], r.ID, func(x *report.Report) error { x.Score = 1; return boom }); !errors.Is(err, boom) {
		t.Errorf("failing update err = %v, want boom", err)
	}
	if stored, _ := s.Report(ctx, u[1], r.ID); stored.Score != 90 {
		t.Errorf("failing update changed the score to %d", stored.Score)
	}
	for _, tt := range []struct{ user, id int64 }{{2, r.ID}, {1, r.ID + 1000}} {
		called := false
		if _, err := s.UpdateReport(ctx, tt.user, tt.id, func(*report.Report) error { called = true; return nil }); !errors.Is(err, report.ErrNotFound) || called {
			t.Errorf("UpdateReport(user %d, %d) err = %v, called = %v; want report.ErrNotFound, not called", tt.user, tt.id, err, called)
		}
	}
}

func testReportDelete(t *testing.T, s ports.ReportStore, u owners) {
	ctx := context.Background()
	r := mustCreate(t, s, newReport(u[1], "https://example.com", 40, 0, report.Private))
	keep := mustCreate(t, s, newReport(u[1], "https://example.com/2", 40, 1, report.Private))
	if err := s.DeleteReport(ctx, u[2], r.ID); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("DeleteReport(other user) err = %v", err)
	}
	if err := s.DeleteReport(ctx, u[1], r.ID); err != nil {
		t.Fatalf("DeleteReport = %v", err)
	}
	if err := s.DeleteReport(ctx, u[1], r.ID); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("second DeleteReport err = %v", err)
	}
	if _, err := s.Report(ctx, u[1], r.ID); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("Report after delete err = %v", err)
	}
	if _, err := s.Report(ctx, u[1], keep.ID); err != nil {
		t.Errorf("the other report went too: %v", err)
	}
	next := mustCreate(t, s, newReport(u[1], "https://example.com/3", 40, 2, report.Private))
	if next.ID <= keep.ID {
		t.Errorf("ID after a delete = %d, want > %d (ids are never reused)", next.ID, keep.ID)
	}
}

func testReportConcurrency(t *testing.T, s ports.ReportStore, u owners) {
	ctx := context.Background()
	const n = 16
	ids := make([]int64, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r, err := s.CreateReport(ctx, newReport(u[1], fmt.Sprintf("https://c%d.example", i), i, i, report.Private))
			if err != nil {
				t.Errorf("concurrent CreateReport = %v", err)
			}
			ids[i] = r.ID
		})
	}
	wg.Wait()
	slices.Sort(ids)
	if len(slices.Compact(slices.Clone(ids))) != n {
		t.Fatalf("concurrent creates gave ids %v, want %d distinct", ids, n)
	}
	// Concurrent read-modify-write updates of one report lose nothing.
	target := ids[0]
	for i := range n {
		wg.Go(func() {
			_, err := s.UpdateReport(ctx, u[1], target, func(r *report.Report) error {
				r.Results[pagecheck.Miscellaneous] = append(r.Results[pagecheck.Miscellaneous], pagecheck.Check{ID: fmt.Sprint("c", i), Category: pagecheck.Miscellaneous, Importance: pagecheck.Low})
				return nil
			})
			if err != nil {
				t.Errorf("concurrent UpdateReport = %v", err)
			}
		})
	}
	wg.Wait()
	r, _ := s.Report(ctx, u[1], target)
	if got := len(r.Results[pagecheck.Miscellaneous]); got != n {
		t.Errorf("after %d concurrent updates %d checks were added: updates were lost", n, got)
	}
}

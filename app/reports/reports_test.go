package reports_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webpage"
)

// cheapPasswords keeps the tests fast; production uses DefaultPasswordParams.
var cheapPasswords = accounts.NewPasswords(accounts.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}, accounts.PasswordLimits{})

// opens reports whether password opens report r's share page.
func opens(t *testing.T, rs *reports.Reports, r report.Report, password string) bool {
	t.Helper()
	ok, err := rs.CheckSharePassword(context.Background(), r, password)
	if err != nil {
		t.Fatalf("CheckSharePassword: %v", err)
	}
	return ok
}

// scripted analyses every URL to finalURL with score, counting calls.
type scripted struct {
	finalURL string
	score    int
	err      error
	calls    atomic.Int32
}

func (s *scripted) AnalyseWithScreenshots(_ context.Context, _ int64, rawURL string, _ pagecheck.RenderMode, _ report.ScreenshotMode) (pagecheck.Analysis, report.Screenshots, error) {
	s.calls.Add(1)
	if s.err != nil {
		return pagecheck.Analysis{}, report.Screenshots{}, s.err
	}
	final := s.finalURL
	if final == "" {
		final = rawURL
	}
	res := pagecheck.Results{pagecheck.SEO: {{ID: "title", Category: pagecheck.SEO, Importance: pagecheck.High, Passed: s.score > 0}}}
	return pagecheck.Analysis{URL: final, Results: res, Score: s.score, Rating: pagecheck.RatingFor(s.score)}, report.Screenshots{}, nil
}

func ptr[T any](v T) *T { return &v }

func fieldOf(err error) string {
	var ve *report.ValidationError
	if !errors.As(err, &ve) {
		return ""
	}
	for f := range ve.Fields {
		return f
	}
	return ""
}

func TestCreateReport(t *testing.T) {
	ctx := context.Background()
	an := &scripted{finalURL: "https://www.Example.com/home", score: 83}
	rs := reports.New(memory.NewReportStore(), an, cheapPasswords)
	r, err := rs.Create(ctx, 7, reports.NewReport{URL: "http://example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if r.ID == 0 || r.UserID != 7 || r.URL != "https://www.Example.com/home" || r.Project != "example.com" || r.Score != 83 ||
		r.Rating != pagecheck.Good || r.Privacy != report.Private || r.HasPassword() || r.GeneratedAt.IsZero() || !r.CreatedAt.Equal(r.GeneratedAt) {
		t.Errorf("Create = %+v", r)
	}
	p, err := rs.Create(ctx, 7, reports.NewReport{URL: "http://example.com", Privacy: ptr(2), Password: ptr("open sesame")})
	if err != nil || !p.HasPassword() || p.PasswordHash == "open sesame" || !opens(t, rs, p.Report, "open sesame") || opens(t, rs, p.Report, "wrong sesame") {
		t.Errorf("Create with password = %+v, %v", p, err)
	}
	calls := an.calls.Load()
	tests := []struct {
		name  string
		in    reports.NewReport
		field string
	}{
		{"no url", reports.NewReport{}, "url"},
		{"ftp", reports.NewReport{URL: "ftp://example.com"}, "url"},
		{"privacy 3", reports.NewReport{URL: "http://a.com", Privacy: ptr(3)}, "privacy"},
		{"privacy 2 without password", reports.NewReport{URL: "http://a.com", Privacy: ptr(2)}, "password"},
		{"privacy 2 with empty password", reports.NewReport{URL: "http://a.com", Privacy: ptr(2), Password: ptr("")}, "password"},
		{"password too short", reports.NewReport{URL: "http://a.com", Privacy: ptr(2), Password: ptr("seven77")}, "password"},
		{"password of spaces", reports.NewReport{URL: "http://a.com", Privacy: ptr(2), Password: ptr("          ")}, "password"},
		{"password of NULs", reports.NewReport{URL: "http://a.com", Privacy: ptr(2), Password: ptr(string(make([]byte, 12)))}, "password"},
		{"common password", reports.NewReport{URL: "http://a.com", Privacy: ptr(2), Password: ptr("password1")}, "password"},
		{"password too long", reports.NewReport{URL: "http://a.com", Privacy: ptr(2), Password: ptr(strings.Repeat("ab", 200))}, "password"},
		{"password with privacy 1", reports.NewReport{URL: "http://a.com", Privacy: ptr(1), Password: ptr("x")}, "password"},
		{"password with default privacy", reports.NewReport{URL: "http://a.com", Password: ptr("x")}, "password"},
	}
	for _, tt := range tests {
		if _, err := rs.Create(ctx, 7, tt.in); fieldOf(err) != tt.field {
			t.Errorf("%s: err = %v, want one on %s", tt.name, err, tt.field)
		}
	}
	if an.calls.Load() != calls {
		t.Error("invalid input was analysed")
	}
	if _, err := rs.Create(ctx, 7, reports.NewReport{URL: "http://a.com", Privacy: ptr(0), Password: ptr("")}); err != nil {
		t.Errorf("an empty password field with privacy 0 = %v, want accepted as not sent", err)
	}
	an.err = &webpage.FetchError{Reason: "no answer"}
	var fe *webpage.FetchError
	if _, err := rs.Create(ctx, 7, reports.NewReport{URL: "http://down.example"}); !errors.As(err, &fe) {
		t.Errorf("unreachable target err = %v", err)
	}
}

func TestUpdateReport(t *testing.T) {
	ctx := context.Background()
	an := &scripted{score: 40}
	rs := reports.New(memory.NewReportStore(), an, cheapPasswords)
	r, _ := rs.Create(ctx, 1, reports.NewReport{URL: "https://example.com/x"})

	if _, err := rs.Update(ctx, 1, r.ID, reports.ReportUpdate{Privacy: ptr(2)}); fieldOf(err) != "password" {
		t.Errorf("to privacy 2 without a password: %v", err)
	}
	if _, err := rs.Update(ctx, 1, r.ID, reports.ReportUpdate{Password: ptr("open sesame")}); fieldOf(err) != "password" {
		t.Errorf("password on a private report: %v", err)
	}
	u, err := rs.Update(ctx, 1, r.ID, reports.ReportUpdate{Privacy: ptr(2), Password: ptr("open sesame")})
	if err != nil || u.Privacy != report.Protected || !opens(t, rs, u, "open sesame") {
		t.Fatalf("to privacy 2 = %+v, %v", u, err)
	}
	u, err = rs.Update(ctx, 1, r.ID, reports.ReportUpdate{Privacy: ptr(0)})
	if err != nil || u.Privacy != report.Public || !u.HasPassword() {
		t.Fatalf("to privacy 0 = %+v, %v; the hash is kept", u, err)
	}
	u, err = rs.Update(ctx, 1, r.ID, reports.ReportUpdate{Privacy: ptr(2)})
	if err != nil || u.Privacy != report.Protected || !opens(t, rs, u, "open sesame") {
		t.Fatalf("back to privacy 2 without a password = %+v, %v; want the old one reused", u, err)
	}
	u, _ = rs.Update(ctx, 1, r.ID, reports.ReportUpdate{Password: ptr("new sesame")})
	if !opens(t, rs, u, "new sesame") || opens(t, rs, u, "open sesame") {
		t.Error("password change on a privacy 2 report did not take")
	}
	if u.Score != 40 || an.calls.Load() != 1 {
		t.Errorf("results=0 re-analysed: score %d, %d analyses", u.Score, an.calls.Load())
	}

	an.score, an.finalURL = 95, "https://www.elsewhere.org/"
	u, err = rs.Update(ctx, 1, r.ID, reports.ReportUpdate{Reanalyse: true})
	if err != nil || u.Score != 95 || u.Rating != pagecheck.Good || u.Project != "elsewhere.org" || u.URL != r.URL || u.Privacy != report.Protected || !u.HasPassword() || an.calls.Load() != 2 {
		t.Errorf("re-analysis = %+v, %v", u, err)
	}
	if _, err := rs.Update(ctx, 2, r.ID, reports.ReportUpdate{Privacy: ptr(0)}); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("another user's update err = %v", err)
	}
	an.err = reports.ErrBusy
	if _, err := rs.Update(ctx, 1, r.ID, reports.ReportUpdate{Reanalyse: true}); !errors.Is(err, reports.ErrBusy) {
		t.Errorf("busy analyser err = %v", err)
	}
	if got, _ := rs.Get(ctx, 1, r.ID); got.Score != 95 {
		t.Errorf("a failed re-analysis changed the report: %+v", got)
	}
}

func TestSharedReports(t *testing.T) {
	ctx := context.Background()
	rs := reports.New(memory.NewReportStore(), &scripted{score: 60}, cheapPasswords)
	priv, _ := rs.Create(ctx, 1, reports.NewReport{URL: "https://a.com"})
	pub, _ := rs.Create(ctx, 1, reports.NewReport{URL: "https://a.com", Privacy: ptr(0)})
	if !report.ValidShareToken(priv.Token) || !report.ValidShareToken(pub.Token) || priv.Token == pub.Token {
		t.Fatalf("share tokens %q and %q", priv.Token, pub.Token)
	}
	for _, viewer := range []int64{0, 2} {
		if _, err := rs.Shared(ctx, priv.Token, viewer); !errors.Is(err, report.ErrNotFound) {
			t.Errorf("Shared(private, viewer %d) err = %v", viewer, err)
		}
	}
	if got, err := rs.Shared(ctx, priv.Token, 1); err != nil || got.ID != priv.ID {
		t.Errorf("Shared(private, its owner) = %+v, %v", got, err)
	}
	if got, err := rs.Shared(ctx, pub.Token, 0); err != nil || got.ID != pub.ID {
		t.Errorf("Shared(public) = %+v, %v", got, err)
	}
	for _, token := range []string{"", "1", strings.ToUpper(pub.Token), pub.Token + "a", "abcdefghijklmnopqrstuvwxyz"} {
		if _, err := rs.Shared(ctx, token, 1); !errors.Is(err, report.ErrNotFound) {
			t.Errorf("Shared(%q) err = %v", token, err)
		}
	}
	if opens(t, rs, pub.Report, "") {
		t.Error("a public report opened with a password")
	}
}

func TestProjectsUseCases(t *testing.T) {
	ctx := context.Background()
	store := memory.NewReportStore()
	rs := reports.New(store, &scripted{score: 60}, cheapPasswords)
	ps := reports.NewProjects(store)
	for _, u := range []string{"https://www.a.com/1", "https://a.com/2", "https://b.com"} {
		if _, err := rs.Create(ctx, 1, reports.NewReport{URL: u}); err != nil {
			t.Fatal(err)
		}
	}
	page, err := ps.List(ctx, 1, report.ProjectParams{SortBy: "project", Sort: "asc"})
	if err != nil || page.Total != 2 || len(page.Items) != 2 || page.Items[0].Name != "a.com" || page.Items[0].Reports != 2 || page.Page.PerPage != 10 {
		t.Fatalf("List = %+v, %v", page, err)
	}
	if _, err := ps.List(ctx, 1, report.ProjectParams{PerPage: 7}); fieldOf(err) != "per_page" {
		t.Errorf("per_page 7 err = %v", err)
	}
	if n, err := ps.Delete(ctx, 1, "WWW.A.com"); err != nil || n != 2 {
		t.Errorf("Delete = %d, %v", n, err)
	}
	if _, err := ps.Delete(ctx, 2, "b.com"); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("another user's Delete err = %v", err)
	}
	if _, err := ps.Delete(ctx, 1, "b.com\x00"); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("Delete of a name with NUL err = %v, want not found", err)
	}
	list, err := rs.List(ctx, 1, report.ReportParams{})
	if err != nil || list.Total != 1 || list.Items[0].Project != "b.com" {
		t.Errorf("reports after project delete = %+v, %v", list, err)
	}
}

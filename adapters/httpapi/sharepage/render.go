package sharepage

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"net/http"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
)

//go:embed share/page.html share/page.css
var shareFiles embed.FS

var (
	shareTemplates = template.Must(template.ParseFS(shareFiles, "share/page.html"))
	shareCSS       = mustRead("share/page.css")
	// shareCSP allows nothing but the page's own inline style sheet, images
	// of its own origin (a report's screenshots) and form posts to itself.
	shareCSP = "default-src 'none'; style-src 'sha256-" + hashCSS(shareCSS) + "'; img-src 'self'; form-action 'self'; " +
		"base-uri 'none'; frame-ancestors 'none'"
)

func mustRead(name string) string {
	b, err := shareFiles.ReadFile(name)
	if err != nil {
		panic(err) // embedded at build time
	}
	return string(b)
}

func hashCSS(css string) string {
	sum := sha256.Sum256([]byte(css))
	return base64.StdEncoding.EncodeToString(sum[:])
}

// pageData is what every share template reads.
type pageData struct {
	// Kind is what the page shows, "report" or "crawl"; "" when unknown
	// (the not-found page never says which, so a private crawl looks
	// like a missing report).
	Kind          string
	Title         string
	CSS           template.CSS
	Token         string // the report's share token, for the forms
	Action        string // the page's path, the forms' target
	CSRF          string // the owner forms' token; set on the report page: the owner signed in
	Error         string
	Report        reportView
	Generated     string
	GeneratedText string
	Passed, Total int
	Failed        int        // Total - Passed
	Fixes         []fixGroup // failed checks by importance, high first
	Categories    []categoryView
	Crawl         crawlView // on a crawl's page
	// Rendered is set when the report's analysis rendered the page; Shots
	// are then the paths of its screenshots.
	Rendered bool
	Shots    screenshotView
}

// reportView is what the page shows of a report besides its checks.
type reportView struct {
	URL, Project, Result string
	Score                int
}

// categoryView lists the passed checks of a category.
type categoryView struct {
	Name, Title   string
	Passed, Total int
	Checks        []checkView
}

// fixGroup lists the failed checks of one importance.
type fixGroup struct {
	Importance string
	Checks     []checkView
}

type checkView struct {
	ID, Title, Importance, Category, Message, Value, Advice string
	Offending                                               []string
	Omitted, OffendingOmitted                               int
	Passed                                                  bool
}

// renderReport shows the failed checks first, grouped by importance (high
// first, then in report order), each with its advice and what it blames;
// then the passed checks by category. A rendered report shows the first
// screen's screenshot first, with a link to the whole page's.
// csrf is set when the owner's sign-in shows it: the page offers to sign out.
func (p *sharePage) renderReport(w http.ResponseWriter, r *http.Request, rep report.Report, csrf string) {
	d := pageData{Kind: "report", Title: rep.Project + " report", Token: rep.Token, Action: p.opts.BasePath + Path(rep.Token), CSRF: csrf, Report: reportView{URL: rep.URL, Project: rep.Project, Result: string(rep.Rating), Score: rep.Score},
		Generated: rep.GeneratedAt.UTC().Format(time.RFC3339), GeneratedText: rep.GeneratedAt.UTC().Format("2 Jan 2006 15:04 UTC"),
		Rendered: rep.Rendering != nil && rep.Rendering.Rendered, Shots: p.screenshotsOf(rep)}
	failed := map[pagecheck.Importance][]checkView{}
	for _, c := range pagecheck.Categories {
		cv := categoryView{Name: string(c), Title: categoryTitle(c), Total: len(rep.Results[c])}
		for _, ch := range rep.Results[c] {
			v := checkView{ID: ch.ID, Title: ch.Title, Importance: string(ch.Importance), Category: categoryTitle(c),
				Message: ch.Message, Value: displayValue(ch.Value), Omitted: ch.Omitted, Passed: ch.Passed,
				Advice: ch.Advice, Offending: ch.Offending, OffendingOmitted: ch.OffendingOmitted}
			if ch.Passed {
				cv.Passed++
				cv.Checks = append(cv.Checks, v)
			} else {
				failed[ch.Importance] = append(failed[ch.Importance], v)
			}
		}
		d.Passed, d.Total = d.Passed+cv.Passed, d.Total+cv.Total
		d.Categories = append(d.Categories, cv)
	}
	d.Failed = d.Total - d.Passed
	for _, imp := range []pagecheck.Importance{pagecheck.High, pagecheck.Medium, pagecheck.Low} {
		if len(failed[imp]) > 0 {
			d.Fixes = append(d.Fixes, fixGroup{Importance: string(imp), Checks: failed[imp]})
		}
	}
	p.render(w, r, http.StatusOK, "report", d)
}

// categoryTitle names a category for people.
func categoryTitle(c pagecheck.Category) string {
	if c == pagecheck.SEO {
		return "SEO"
	}
	return string(c)
}

// displayValue shows a check's value: text as is, anything else as
// indented JSON; nothing for null, empty text, lists and objects.
func displayValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil || string(b) == "[]" || string(b) == "{}" {
		return ""
	}
	return string(b)
}

// render writes a template with the page's security headers. Pages are
// never cached: privacy can change at any time.
func (p *sharePage) render(w http.ResponseWriter, r *http.Request, status int, name string, d pageData) {
	d.CSS = template.CSS(shareCSS)
	var buf bytes.Buffer
	if err := shareTemplates.ExecuteTemplate(&buf, name, d); err != nil {
		middleware.Logger(r.Context()).ErrorContext(r.Context(), "report page template failed", "template", name, "err", err)
		status, buf = http.StatusInternalServerError, *bytes.NewBufferString("internal server error")
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", shareCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "private, no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

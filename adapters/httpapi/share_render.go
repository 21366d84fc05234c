package httpapi

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"log/slog"
	"net/http"
	"time"

	"github.com/pinsight/pinsight/domain/site"
)

//go:embed share/page.html share/page.css
var shareFiles embed.FS

var (
	shareTemplates = template.Must(template.ParseFS(shareFiles, "share/page.html"))
	shareCSS       = mustRead("share/page.css")
	// shareCSP allows nothing but the page's own inline style sheet and
	// form posts to itself.
	shareCSP = "default-src 'none'; style-src 'sha256-" + hashCSS(shareCSS) + "'; form-action 'self'; " +
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
	Title         string
	CSS           template.CSS
	Token         string // the report's share token, for the password form
	Error         string
	Report        ReportItem
	Generated     string
	GeneratedText string
	Passed, Total int
	Categories    []categoryView
}

type categoryView struct {
	Name, Title string
	Passed      int
	Checks      []checkView
}

type checkView struct {
	ID, Title, Importance, Message, Value string
	Omitted                               int
	Passed                                bool
}

func (p *sharePage) renderReport(w http.ResponseWriter, rep site.Report) {
	d := pageData{Title: rep.Project + " report", Report: reportItem(rep),
		Generated: rep.GeneratedAt.UTC().Format(time.RFC3339), GeneratedText: rep.GeneratedAt.UTC().Format("2 Jan 2006 15:04 UTC")}
	for _, c := range site.Categories {
		cv := categoryView{Name: string(c), Title: string(c)}
		if c == site.SEO {
			cv.Title = "SEO"
		}
		for _, ch := range rep.Results[c] {
			cv.Checks = append(cv.Checks, checkView{ID: ch.ID, Title: ch.Title, Importance: string(ch.Importance),
				Message: ch.Message, Value: displayValue(ch.Value), Omitted: ch.Omitted, Passed: ch.Passed})
			if ch.Passed {
				cv.Passed++
			}
		}
		d.Passed, d.Total = d.Passed+cv.Passed, d.Total+len(cv.Checks)
		d.Categories = append(d.Categories, cv)
	}
	p.render(w, http.StatusOK, "report", d)
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
func (p *sharePage) render(w http.ResponseWriter, status int, name string, d pageData) {
	d.CSS = template.CSS(shareCSS)
	var buf bytes.Buffer
	if err := shareTemplates.ExecuteTemplate(&buf, name, d); err != nil {
		slog.Error("report page template failed", "template", name, "err", err)
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

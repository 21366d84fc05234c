package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/csvcell"
	"github.com/pinsight/pinsight/ports"
)

type crawlExportInput struct {
	ID     int64  `path:"id" doc:"Crawl id."`
	What   string `query:"what" enum:"pages,issues,links,checks" doc:"Required (else 422). pages: every recorded URL; issues: every site-level issue; links: every link between crawled URLs (from, to); checks: every failed page check, one row per page and check, with what it found."`
	Format string `query:"format" enum:"csv,jsonl" default:"csv" doc:"csv: RFC 4180 (CRLF line ends, a header row); jsonl: one JSON object per line, the fields of the list operations."`
}

// Column headers of the CSV exports.
var (
	pageColumns = []string{"id", "url", "final_url", "status_code", "failure", "depth", "in_sitemap", "blocked_by_robots",
		"title", "description", "score", "result", "inlinks", "outlinks", "response_time_ms", "bytes", "canonical",
		"indexable", "fetched_at", "issue_types", "rendered", "render_reason", "found_by_js", "failing_checks", "lang"}
	issueColumns = []string{"type", "severity", "url", "line", "line_text", "detail", "related", "related_total"}
	linkColumns  = []string{"from", "to"}
	checkColumns = []string{"page_id", "url", "category", "check", "title", "importance", "errors", "message", "value", "offending", "advice"}
)

// failedCheckData is one failed page check of a crawled page, as the
// checks export writes it in JSON Lines.
type failedCheckData struct {
	PageID   int64  `json:"page_id"`
	URL      string `json:"url"`
	Category string `json:"category"`
	wire.CheckData
}

// linkData is one link of a crawl.
type linkData struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// csvCellsDoc says how CSV answers write cells a spreadsheet would run
// (csvcell), for the descriptions of every operation answering CSV.
const csvCellsDoc = "CSV cells starting with =, +, -, @, a tab or a carriage return are written with a single quote " +
	"in front (OWASP's rule against CSV injection), except a cell that is a decimal number (an optional sign, digits " +
	"with an optional point, an optional exponent: -12.5 stays -12.5); JSON Lines is written as it is."

// exportFlushRows is how many rows are written between flushes, so a slow
// export still reaches the client as it goes.
const exportFlushRows = 500

func registerCrawlExport(g huma.API, cs *crawls.Crawls, acc *accounts.Accounts) {
	op := huma.Operation{OperationID: "export-crawl", Method: http.MethodGet, Path: "/crawls/{id}/export", Tags: []string{"Crawls"},
		Summary: "Export a crawl's pages, issues or links",
		Description: "Streams every row, read from storage in chunks (the crawl is never held in memory): CSV (RFC 4180, " +
			"CRLF line ends, a header row; text/csv) or JSON Lines (application/jsonl). Pages: " + strings.Join(pageColumns, ", ") +
			" (depth empty for a URL found only in a sitemap). Issues: " + strings.Join(issueColumns, ", ") +
			" (related URLs separated by spaces). Links: " + strings.Join(linkColumns, ", ") + ". Checks: " +
			strings.Join(checkColumns, ", ") + " (one row per page and failed check, by page id; errors separated by spaces; " +
			"in CSV, value is a text value as it is and any other value as JSON, offending a JSON list; in JSON Lines, " +
			"page_id, url, category and the check as a report's results give it). Pages' issue_types and " +
			"failing_checks are separated by spaces. An invalid what or " +
			"format is 422; another user's crawl is 404. An error after the first row ends the body early: a CSV " +
			"export then lacks its last rows, so compare the row count with the crawl's when it matters. " + csvCellsDoc,
		Responses: map[string]*huma.Response{"200": {Description: "The rows.", Content: map[string]*huma.MediaType{
			"text/csv": {Schema: &huma.Schema{Type: "string"}}, "application/jsonl": {Schema: &huma.Schema{Type: "string"}}}}}}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *crawlExportInput) (*huma.StreamResponse, error) {
		if in.What == "" {
			return nil, invalid("what", "is required: pages, issues, links or checks")
		}
		uid := caller(ctx).User.ID
		if _, err := cs.Get(ctx, uid, in.ID); err != nil {
			return nil, toHTTP(err)
		}
		return &huma.StreamResponse{Body: func(hctx huma.Context) {
			ctype := "text/csv; charset=utf-8"
			if in.Format == "jsonl" {
				ctype = "application/jsonl; charset=utf-8"
			}
			hctx.SetHeader("Content-Type", ctype)
			hctx.SetHeader("Content-Disposition", `attachment; filename="crawl-`+strconv.FormatInt(in.ID, 10)+"-"+in.What+"."+in.Format+`"`)
			hctx.SetStatus(http.StatusOK)
			w := newRowWriter(hctx.BodyWriter(), in.Format == "jsonl")
			var err error
			switch in.What {
			case "pages":
				w.header(pageColumns)
				err = cs.EachPage(ctx, uid, in.ID, func(p ports.CrawlPage) error { return w.row(pageRow(p), crawlPageItemOf(p)) })
			case "issues":
				w.header(issueColumns)
				err = cs.EachIssue(ctx, uid, in.ID, func(i crawl.Issue) error { return w.row(issueRow(i), crawlIssueOf(i)) })
			case "links":
				w.header(linkColumns)
				err = cs.EachLink(ctx, uid, in.ID, func(from, to string) error { return w.row([]string{from, to}, linkData{from, to}) })
			case "checks":
				w.header(checkColumns)
				err = cs.EachFailedCheck(ctx, uid, in.ID, func(f ports.FailedCheck) error {
					return w.row(failedCheckRow(f), failedCheckData{PageID: f.PageID, URL: f.URL, Category: string(f.Check.Category), CheckData: checkDataOf(f.Check)})
				})
			}
			if err == nil {
				err = w.flush()
			}
			if err != nil {
				slog.WarnContext(ctx, "crawl export ended early", "crawl", in.ID, "what", in.What, "err", err)
			}
		}}, nil
	})
}

// rowWriter writes the rows of an export as CSV (its cells through
// csvcell: a cell a spreadsheet would read as a formula is written as
// text) or JSON Lines, flushing every exportFlushRows rows.
type rowWriter struct {
	out   io.Writer
	csv   *csvcell.Writer
	json  *json.Encoder
	rows  int
	jsonl bool
}

func newRowWriter(out io.Writer, jsonl bool) *rowWriter {
	w := &rowWriter{out: out, jsonl: jsonl}
	if jsonl {
		w.json = json.NewEncoder(out)
		w.json.SetEscapeHTML(false)
	} else {
		w.csv = csvcell.NewWriter(out)
	}
	return w
}

// header writes the CSV header row (JSON Lines has none).
func (w *rowWriter) header(cols []string) {
	if !w.jsonl {
		_ = w.csv.Write(cols)
	}
}

// row writes one row: fields as CSV, or obj as a JSON line.
func (w *rowWriter) row(fields []string, obj any) error {
	var err error
	if w.jsonl {
		err = w.json.Encode(obj)
	} else {
		err = w.csv.Write(fields)
	}
	if err != nil {
		return err
	}
	if w.rows++; w.rows%exportFlushRows == 0 {
		return w.flush()
	}
	return nil
}

// flush sends what is buffered to the client.
func (w *rowWriter) flush() error {
	if !w.jsonl {
		w.csv.Flush()
		if err := w.csv.Error(); err != nil {
			return err
		}
	}
	if f, ok := w.out.(http.Flusher); ok {
		f.Flush()
	}
	return nil
}

func pageRow(p ports.CrawlPage) []string {
	pg := p.Page
	depth := ""
	if pg.Depth != crawl.NoDepth {
		depth = strconv.Itoa(pg.Depth)
	}
	return []string{strconv.FormatInt(p.ID, 10), pg.URL, pg.FinalURL, strconv.Itoa(pg.Status), pg.Failure, depth,
		strconv.FormatBool(pg.InSitemap), strconv.FormatBool(pg.BlockedByRobots), pg.Title, pg.Description,
		strconv.Itoa(p.Score), string(p.Rating), strconv.Itoa(p.Inlinks), strconv.Itoa(p.Outlinks),
		strconv.FormatInt(p.ResponseTime.Milliseconds(), 10), strconv.FormatInt(p.Bytes, 10), pg.Canonical,
		strconv.FormatBool(p.Indexable), p.FetchedAt.UTC().Format(time.RFC3339), issueTypesText(p.IssueTypes),
		strconv.FormatBool(pg.Render.Rendered), pg.Render.Reason, strconv.FormatBool(pg.FoundByJS), strings.Join(p.Failing, " "), pg.Lang}
}

// failedCheckRow is f as a CSV row of the checks export.
func failedCheckRow(f ports.FailedCheck) []string {
	c := f.Check
	value, ok := c.Value.(string)
	if !ok {
		value = jsonCell(c.Value)
	}
	return []string{strconv.FormatInt(f.PageID, 10), f.URL, string(c.Category), c.ID, c.Title, string(c.Importance),
		strings.Join(c.Errors, " "), c.Message, value, jsonCell(list(c.Offending)), c.Advice}
}

// jsonCell is v as JSON in a CSV cell (HTML not escaped).
func jsonCell(v any) string {
	var b strings.Builder
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return "" // a check's value survives a JSON round trip (pagecheck.Check.Value)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// issueTypesText is a page's issue types, space-separated as a CSV cell.
func issueTypesText(ts []crawl.IssueType) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return strings.Join(s, " ")
}

func issueRow(i crawl.Issue) []string {
	return []string{string(i.Type), string(i.Severity()), i.URL, strconv.Itoa(i.Line), i.LineText, i.Detail,
		strings.Join(i.Related, " "), strconv.Itoa(i.RelatedTotal)}
}

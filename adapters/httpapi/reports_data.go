package httpapi

import (
	"cmp"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/site"
)

// CheckData is one check of a report.
type CheckData struct {
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	Passed     bool     `json:"passed"`
	Importance string   `json:"importance" enum:"high,medium,low" doc:"Weight in the score: high 10, medium 5, low 0."`
	Value      any      `json:"value" doc:"What was found (text, number, list or object); null when nothing. Bounded whatever the page holds: each string (object keys included) at most 200 characters, a longer one cut to 199 followed by an ellipsis (…); each list or object at most 25 entries (objects keep the first keys in sorted order); all the strings of one value at most 2,000 characters together, entries beyond are left out."`
	Omitted    int      `json:"omitted,omitempty" minimum:"0" doc:"How many list or object entries were left out of value to keep it within its bounds; absent when none were. The message gives the totals found."`
	Errors     []string `json:"errors,omitempty" doc:"Machine-readable failure codes; absent when passed."`
	Message    string   `json:"message" doc:"What the check found, at most 300 characters (a longer one is cut and ends with an ellipsis)."`
	Advice     string   `json:"advice,omitempty" doc:"What to change, one sentence per failure code, at most 600 characters; absent when passed (and in reports made before advice existed)."`
	Offending  []string `json:"offending,omitempty" doc:"What a failed check blames, where it blames something in particular: elements as short source snippets (start tag with its attributes, the start of its text), header values or URLs, first found first. Bounded like value: each entry at most 200 characters, at most 25 entries, 2,000 characters together. Absent when passed or when nothing in particular is to blame."`
	// OffendingOmitted counts the entries left out of Offending.
	OffendingOmitted int `json:"offending_omitted,omitempty" minimum:"0" doc:"How many offending entries were left out to keep the list within its bounds; absent when none were."`
}

// ResultsData are a report's checks grouped by category, each in check order.
type ResultsData struct {
	SEO           []CheckData `json:"seo"`
	Performance   []CheckData `json:"performance"`
	Security      []CheckData `json:"security"`
	Miscellaneous []CheckData `json:"miscellaneous"`
}

// ReportItem is a report as lists show it: every field but the checks.
type ReportItem struct {
	ID          int64      `json:"id" doc:"Increases with creation time."`
	URL         string     `json:"url" doc:"The analysed URL (after redirects), set on creation."`
	Project     string     `json:"project" doc:"Host of the URL, lower-cased, without a leading www."`
	Result      string     `json:"result" enum:"good,decent,bad," doc:"Band of the score: good above 79, decent 49 to 79, bad below 49; empty until the first analysis finished (status pending, running or failed)."`
	Score       int        `json:"score" minimum:"0" maximum:"100" doc:"100 x weight of passed checks / weight of all checks, truncated."`
	Privacy     int        `json:"privacy" enum:"0,1,2" doc:"0 public, 1 private, 2 password."`
	HasPassword bool       `json:"has_password" doc:"Whether a share password is stored (the password itself is never returned)."`
	ShareURL    string     `json:"share_url" doc:"Path of the report's HTML page on this server, /r/ (after the API's base path when a host mounts it under one: the path of the OpenAPI servers entry) followed by the report's share token (128 random bits in base32, drawn when the report is created and never changed or reused): give it, prefixed with the server's origin, to whoever may see the report. The page shows the report to anyone when privacy is 0, asks for the password when it is 2, and is 404 when it is 1 (unless the owner's key is sent). Report ids are never used in page addresses."`
	Status      string     `json:"status" enum:"pending,running,generated,failed" doc:"Where the report's analysis is: pending (queued), running, generated (finished: results, score and result hold), failed (see failure). A page that answers with any HTTP status is generated."`
	Attempts    int        `json:"attempts" minimum:"0" doc:"Analyses of the current request started so far (at most 3 when retried)."`
	Failure     string     `json:"failure,omitempty" doc:"Why the analysis failed (status failed), or why the last attempt is retried; absent otherwise."`
	Schedule    string     `json:"schedule" enum:"daily,weekly,off" doc:"How often the report is re-analysed by itself."`
	NextRunAt   *time.Time `json:"next_run_at,omitempty" doc:"When the next scheduled analysis is due; absent without a schedule."`
	GeneratedAt time.Time  `json:"generated_at" doc:"When the analysis ran (for a report not generated yet, the time of its creation)."`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
}

// ReportData is one report with its checks.
type ReportData struct {
	ReportItem
	Results ResultsData `json:"results"`
}

// ReportsData is a page of reports.
type ReportsData struct {
	Reports []ReportItem `json:"reports"`
	Meta    Meta         `json:"meta"`
}

// ProjectData summarises one project.
type ProjectData struct {
	Project   string    `json:"project" doc:"Host name, lower-cased, without a leading www."`
	Reports   int       `json:"reports" doc:"Number of reports."`
	Score     int       `json:"score" doc:"Average score of the reports, truncated."`
	Result    string    `json:"result" enum:"good,decent,bad" doc:"Band of the average score."`
	CreatedAt time.Time `json:"created_at" doc:"Creation time of the project's oldest report."`
}

// ProjectsData is a page of projects.
type ProjectsData struct {
	Projects []ProjectData `json:"projects"`
	Meta     Meta          `json:"meta"`
}

// ProjectDeletedData confirms a project deletion.
type ProjectDeletedData struct {
	Project        string `json:"project"`
	Deleted        bool   `json:"deleted"`
	ReportsDeleted int    `json:"reports_deleted"`
}

// reportItem is r as lists show it; base is the path the API is served
// under (see mountPath), which starts share_url.
func reportItem(base string, r site.Report) ReportItem {
	return ReportItem{
		ID: r.ID, URL: r.URL, Project: r.Project, Result: string(r.Rating), Score: r.Score,
		Privacy: int(r.Privacy), HasPassword: r.HasPassword(), ShareURL: base + sharepage.Path(r.Token),
		Status: string(site.StatusOrGenerated(r.Status)), Attempts: r.Attempts, Failure: r.Failure,
		Schedule: cmp.Or(string(r.Schedule), "off"), NextRunAt: nextRun(r),
		GeneratedAt: r.GeneratedAt.UTC(), CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
}

// nextRun is the time of r's next scheduled analysis, nil without one.
func nextRun(r site.Report) *time.Time {
	if r.Schedule == site.ScheduleOff {
		return nil
	}
	t := r.NextRunAt.UTC()
	return &t
}

func reportData(base string, r site.Report) ReportData {
	checks := func(c site.Category) []CheckData {
		out := make([]CheckData, 0, len(r.Results[c]))
		for _, ch := range r.Results[c] {
			out = append(out, CheckData{ID: ch.ID, Title: ch.Title, Passed: ch.Passed, Importance: string(ch.Importance), Value: ch.Value,
				Omitted: ch.Omitted, Errors: ch.Errors, Message: ch.Message, Advice: ch.Advice, Offending: ch.Offending, OffendingOmitted: ch.OffendingOmitted})
		}
		return out
	}
	return ReportData{ReportItem: reportItem(base, r), Results: ResultsData{
		SEO: checks(site.SEO), Performance: checks(site.Performance), Security: checks(site.Security), Miscellaneous: checks(site.Miscellaneous),
	}}
}

func reportsData(base string, page paging.List[site.Report]) ReportsData {
	out := ReportsData{Reports: make([]ReportItem, 0, len(page.Items)), Meta: meta(page.Page, page.Total)}
	for _, r := range page.Items {
		out.Reports = append(out.Reports, reportItem(base, r))
	}
	return out
}

func projectsData(page paging.List[site.Project]) ProjectsData {
	out := ProjectsData{Projects: make([]ProjectData, 0, len(page.Items)), Meta: meta(page.Page, page.Total)}
	for _, p := range page.Items {
		out.Projects = append(out.Projects, ProjectData{Project: p.Name, Reports: p.Reports, Score: p.Score, Result: string(p.Rating), CreatedAt: p.CreatedAt.UTC()})
	}
	return out
}

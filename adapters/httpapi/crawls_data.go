package httpapi

import (
	"cmp"
	"net/url"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
)

// issueCountData is how many issues of one type a crawl found.
type issueCountData struct {
	Type     string `json:"type" doc:"Issue type (see the catalogue in GET /crawls/{id}/issues)."`
	Severity string `json:"severity" enum:"high,medium,low" doc:"The type's severity."`
	Title    string `json:"title" doc:"The type's name for people."`
	Count    int    `json:"count" doc:"Issues of the type found."`
}

// checkCountData is how many crawled pages fail one page check.
type checkCountData struct {
	Check   string `json:"check" doc:"The page check's id, as in a report's results."`
	Failing int    `json:"failing" doc:"Crawled pages failing it."`
	Pages   string `json:"pages" doc:"The path of the list of those pages (GET, with the caller's key): the crawl's pages filtered by check."`
}

// aiAccessData is whether robots.txt lets one AI crawler in.
type aiAccessData struct {
	Token    string `json:"token" doc:"The crawler's User-agent token."`
	Operator string `json:"operator" doc:"Who runs it."`
	Purpose  string `json:"purpose" enum:"training,search,user" doc:"training: collects data to train models; search: an AI search index; user: fetches pages a user asked an assistant about."`
	Allowed  bool   `json:"allowed" doc:"Whether robots.txt lets it fetch the start URL."`
	Group    string `json:"group" doc:"The robots.txt group that decided: the token (lower case), * or empty when none applies."`
	Rule     string `json:"rule" doc:"The rule keeping it out, empty when allowed."`
}

// llmsFindingData is a way /llms.txt departs from the llmstxt.org format.
type llmsFindingData struct {
	Code    string `json:"code" enum:"empty,missing_title,extra_title,heading_level,bad_link,empty_section" doc:"What is wrong."`
	Line    int    `json:"line" doc:"1-based line; 0 for the file as a whole."`
	Message string `json:"message" doc:"What is wrong, for people."`
}

// llmsTxtData is the state of the site's /llms.txt.
type llmsTxtData struct {
	Found      bool              `json:"found" doc:"Whether /llms.txt answered 2xx."`
	WellFormed bool              `json:"well_formed" doc:"Found without findings."`
	Findings   []llmsFindingData `json:"findings" doc:"How it departs from the llmstxt.org format, in line order."`
}

// crawlData is one crawl with what it found.
type crawlData struct {
	wire.CrawlItem
	Issues    []issueCountData  `json:"issues" doc:"One entry per issue type found, in catalogue order, with its count; empty until the crawl ends."`
	Checks    []checkCountData  `json:"checks" doc:"For each page check some crawled page fails, how many pages fail it; empty until the crawl ends."`
	AI        []aiAccessData    `json:"ai_readiness" doc:"Whether robots.txt lets each well-known AI crawler fetch the start URL; empty until the crawl ends."`
	LLMsTxt   llmsTxtData       `json:"llms_txt" doc:"The site's /llms.txt; found is false until the crawl ends."`
	Rendering []renderCountData `json:"rendering" doc:"For a rendered crawl, its audited pages counted by whether a browser rendered them and why (rendered first); empty until the crawl ends, and for a crawl that does not render."`
}

// renderCountData is how many pages a rendered crawl rendered, or not,
// for one reason.
type renderCountData struct {
	Rendered bool   `json:"rendered" doc:"Whether a browser rendered these pages."`
	Reason   string `json:"reason" doc:"Why: requested, an automatic rule's reason, renderer_unavailable or render_failed: and why (see a page's render_reason)."`
	Pages    int    `json:"pages" doc:"How many audited pages."`
}

// crawlsData is a page of crawls.
type crawlsData struct {
	Crawls []wire.CrawlItem `json:"crawls" doc:"The page's crawls."`
	Meta   wire.Meta        `json:"meta" doc:"Pagination."`
}

// timeOrNil is t in UTC, nil when zero.
func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}

// crawlItemOf is c as lists show it; base is the path the API is mounted
// under (see mountPath), which starts share_url.
func crawlItemOf(c crawl.Crawl, base string) wire.CrawlItem {
	s := c.Settings
	return wire.CrawlItem{ID: c.ID, URL: s.URL, Site: c.Site, Status: string(c.Status), Failure: c.Failure,
		Privacy: int(s.Privacy), HasPassword: c.PasswordHash != "", ShareURL: base + sharepage.Path(c.Token), Schedule: cmp.Or(string(s.Schedule), "off"),
		NextRunAt: timeOrNil(c.NextRunAt), ScheduledFrom: c.ScheduledFrom,
		Settings: wire.CrawlSettingsData{MaxPages: s.MaxPages, MaxDepth: s.MaxDepth, Concurrency: s.Concurrency,
			DelayMS: int(s.Delay / time.Millisecond), Include: list(s.Include), Exclude: list(s.Exclude),
			Subdomains: s.Subdomains, Headers: len(s.Headers), Render: string(cmp.Or(s.Render, pagecheck.RenderOff))},
		Progress: wire.CrawlProgressData{Discovered: c.Progress.Discovered, Crawled: c.Progress.Crawled,
			Failed: c.Progress.Failed, Blocked: c.Progress.Blocked, NotQueued: c.Progress.NotQueued, LinksNotRead: c.Progress.LinksNotRead},
		Score: c.Score, Result: string(c.Rating),
		CreatedAt: c.CreatedAt.UTC(), StartedAt: timeOrNil(c.StartedAt), FinishedAt: timeOrNil(c.FinishedAt)}
}

func crawlDataOf(c crawl.Crawl, base string) crawlData {
	sum := c.Summary
	out := crawlData{CrawlItem: crawlItemOf(c, base), Issues: []issueCountData{}, Checks: []checkCountData{}, AI: []aiAccessData{}, Rendering: []renderCountData{},
		LLMsTxt: llmsTxtData{Found: sum.LLMsTxt.Found, WellFormed: sum.LLMsTxt.Found && len(sum.LLMsTxt.Findings) == 0, Findings: []llmsFindingData{}}}
	for _, t := range sum.Issues {
		d, _ := crawl.Definition(t.Type)
		out.Issues = append(out.Issues, issueCountData{Type: string(t.Type), Severity: string(t.Severity), Title: d.Title, Count: t.Count})
	}
	for _, ch := range sum.Checks {
		out.Checks = append(out.Checks, checkCountData{Check: ch.Check, Failing: ch.Failing,
			Pages: base + crawlPath(c.ID) + "/pages?check=" + url.QueryEscape(ch.Check)})
	}
	for _, a := range sum.AI {
		out.AI = append(out.AI, aiAccessData{Token: a.Token, Operator: a.Operator, Purpose: a.Purpose, Allowed: a.Allowed, Group: a.Group, Rule: a.Rule})
	}
	for _, r := range sum.Rendering {
		out.Rendering = append(out.Rendering, renderCountData{Rendered: r.Rendered, Reason: r.Reason, Pages: r.Pages})
	}
	for _, f := range sum.LLMsTxt.Findings {
		out.LLMsTxt.Findings = append(out.LLMsTxt.Findings, llmsFindingData{Code: f.Code, Line: f.Line, Message: f.Message})
	}
	return out
}

func crawlsDataOf(cs []crawl.Crawl, total int, q crawl.ListQuery, base string) crawlsData {
	out := crawlsData{Crawls: make([]wire.CrawlItem, 0, len(cs)), Meta: metaOf(q.Page, total)}
	for _, c := range cs {
		out.Crawls = append(out.Crawls, crawlItemOf(c, base))
	}
	return out
}

// crawlPageData is one crawled page with its full audit.
type crawlPageData struct {
	wire.CrawlPageItem
	Links   []string         `json:"links" doc:"The on-site URLs the page links to, each once."`
	Results wire.ResultsData `json:"results" doc:"The page audit, every check as a report shows it (empty lists when the page was not audited)."`
	// Rendering is what the browser showed, for a page a rendered crawl
	// rendered.
	Rendering *pagecheck.Rendering `json:"rendering,omitempty" doc:"What the browser showed of the page, when a rendered crawl rendered it, as a rendered report's rendering: raw versus rendered, what the page loaded, lab performance. Absent otherwise."`
}

// crawlPagesData is a page of crawled pages.
type crawlPagesData struct {
	Pages []wire.CrawlPageItem `json:"pages" doc:"The page's pages."`
	Meta  wire.Meta            `json:"meta" doc:"Pagination."`
}

func crawlPageItemOf(p ports.CrawlPage) wire.CrawlPageItem {
	pg := p.Page
	var depth *int
	if pg.Depth != crawl.NoDepth {
		d := pg.Depth
		depth = &d
	}
	types := make([]string, 0, len(p.IssueTypes))
	for _, t := range p.IssueTypes {
		types = append(types, string(t))
	}
	return wire.CrawlPageItem{ID: p.ID, URL: pg.URL, FinalURL: pg.FinalURL, StatusCode: pg.Status, Failure: pg.Failure, Depth: depth,
		InSitemap: pg.InSitemap, BlockedByRobots: pg.BlockedByRobots, Redirects: list(pg.Redirects), Title: pg.Title,
		Description: pg.Description, Score: p.Score, Result: string(p.Rating), Inlinks: p.Inlinks, Outlinks: p.Outlinks,
		ResponseTimeMS: p.ResponseTime.Milliseconds(), Bytes: p.Bytes, Canonical: pg.Canonical, Indexable: p.Indexable,
		IssueTypes: types, FetchedAt: p.FetchedAt.UTC(), Rendered: pg.Render.Rendered, RenderReason: pg.Render.Reason, FoundByJS: pg.FoundByJS,
		Lang: pg.Lang, FailingChecks: list(p.Failing)}
}

// crawlIssueData is one site-level issue.
type crawlIssueData struct {
	Type         string   `json:"type" doc:"Issue type."`
	Severity     string   `json:"severity" enum:"high,medium,low" doc:"high: keeps pages out of search results or visitors from content; medium: weakens how pages are indexed or ranked; low: worth tidying, harms little by itself."`
	Title        string   `json:"title" doc:"The type's name for people."`
	URL          string   `json:"url" doc:"The URL the issue is about (robots.txt's for robots_txt_invalid)."`
	Line         int      `json:"line" doc:"For robots_txt_invalid, the robots.txt line (1-based); 0 otherwise."`
	LineText     string   `json:"line_text" doc:"For robots_txt_invalid, the line's text; empty otherwise."`
	Detail       string   `json:"detail" doc:"What was found, for people."`
	Related      []string `json:"related" doc:"The other URLs involved: the pages linking to a broken or blocked URL, the other pages sharing a title, description or text, the hops of a redirect chain or loop (in order), a canonical target and its hops, the alternates not linking back. At most 50."`
	RelatedTotal int      `json:"related_total" doc:"How many related URLs there are in all."`
	Advice       string   `json:"advice" doc:"What to change."`
	Why          string   `json:"why" doc:"Why it matters."`
}

// crawlIssuesData is a page of issues.
type crawlIssuesData struct {
	Issues []crawlIssueData `json:"issues" doc:"The page's issues, in catalogue order, then by URL."`
	Meta   wire.Meta        `json:"meta" doc:"Pagination."`
}

func crawlIssueOf(i crawl.Issue) crawlIssueData {
	d, _ := crawl.Definition(i.Type)
	return crawlIssueData{Type: string(i.Type), Severity: string(d.Severity), Title: d.Title, URL: i.URL, Line: i.Line,
		LineText: i.LineText, Detail: i.Detail, Related: list(i.Related), RelatedTotal: i.RelatedTotal, Advice: d.Advice, Why: d.Why}
}

// diffTypeData are the issues of one type in one part of a diff.
type diffTypeData struct {
	Type   string           `json:"type" doc:"Issue type."`
	Count  int              `json:"count" doc:"Issues of the type in this part."`
	Issues []crawlIssueData `json:"issues" doc:"The issues, with their URLs."`
}

// crawlDiffData compares the issues of two crawls of a site.
type crawlDiffData struct {
	Crawl      int64          `json:"crawl" doc:"The crawl compared (the later one)."`
	Against    int64          `json:"against" doc:"The crawl it is compared with."`
	New        []diffTypeData `json:"new" doc:"Issues found by crawl only, by type in catalogue order."`
	Fixed      []diffTypeData `json:"fixed" doc:"Issues found by against only (as against found them)."`
	Persisting []diffTypeData `json:"persisting" doc:"Issues found by both (as crawl found them)."`
}

func diffTypesOf(parts []crawl.TypeIssues) []diffTypeData {
	out := make([]diffTypeData, 0, len(parts))
	for _, p := range parts {
		d := diffTypeData{Type: string(p.Type), Count: len(p.Issues), Issues: make([]crawlIssueData, 0, len(p.Issues))}
		for _, i := range p.Issues {
			d.Issues = append(d.Issues, crawlIssueOf(i))
		}
		out = append(out, d)
	}
	return out
}

package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
)

type crawlPagesInput struct {
	ID         int64  `path:"id" doc:"Crawl id."`
	StatusCode int    `query:"status_code" minimum:"100" maximum:"599" doc:"Only pages whose final answer has this HTTP status."`
	IssueType  string `query:"issue_type" maxLength:"64" doc:"Only pages (URLs) an issue of this type is about; an unknown type is 422."`
	Check      string `query:"check" maxLength:"64" doc:"Only pages whose audit fails this page check (its id: a report's results and the crawl's checks summary name them; each summary entry's pages is this list); an unknown check is 422."`
	Indexable  string `query:"indexable" enum:"true,false" doc:"Only indexable pages, or only the others."`
	SortBy     string `query:"sort_by" enum:"id,url,depth,score,inlinks,response_time" default:"id" doc:"id is the discovery order; depth puts URLs found only in sitemaps last. Ties are broken by id."`
	Sort       string `query:"sort" enum:"asc,desc" default:"asc" doc:"Direction of sort_by."`
	PerPage    int    `query:"per_page" enum:"10,25,50,100" default:"10" doc:"Items per page."`
	Page       int    `query:"page" minimum:"1" default:"1" doc:"A page beyond the last is an empty list."`
}

type crawlPageInput struct {
	ID   int64 `path:"id" doc:"Crawl id."`
	Page int64 `path:"page" doc:"Page id (the id of an item of GET /crawls/{id}/pages)."`
}

type crawlIssuesInput struct {
	ID       int64  `path:"id" doc:"Crawl id."`
	Type     string `query:"type" maxLength:"64" doc:"Only issues of this type; an unknown type is 422."`
	Severity string `query:"severity" enum:"high,medium,low" doc:"Only issues of this severity."`
	PerPage  int    `query:"per_page" enum:"10,25,50,100" default:"10" doc:"Items per page."`
	Page     int    `query:"page" minimum:"1" default:"1" doc:"A page beyond the last is an empty list."`
}

type crawlDiffInput struct {
	ID      int64 `path:"id" doc:"Crawl id: the later crawl."`
	Against int64 `query:"against" minimum:"1" doc:"The crawl to compare with; absent: the caller's newest finished crawl created before this one with the same start URL (normalised: so the same scheme, host and port) and the same subdomains setting; crawls of another port or section of the site are not compared (none is 422 on against)."`
}

func registerCrawlPages(g huma.API, cs *crawls.Crawls, acc *accounts.Accounts) {
	tags := []string{"Crawls"}
	op := huma.Operation{OperationID: "list-crawl-pages", Method: http.MethodGet, Path: "/crawls/{id}/pages", Tags: tags,
		Summary: "List the URLs a crawl fetched",
		Description: "Every URL the crawl recorded: fetched (whatever it answered) or blocked by robots.txt. " +
			"Filters combine (check: the pages failing a page check, as the crawl's checks summary counts them; " +
			"the checks export gives what each failed check found); invalid values are 422. Inlinks are counted when the crawl ends. Another user's crawl is " +
			"404. data: {pages, meta}."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *crawlPagesInput) (*reply[crawlPagesData], error) {
		sortBy := in.SortBy
		if sortBy == "id" {
			sortBy = ""
		}
		q, err := crawls.NewPageQuery(crawls.PageParams{Status: in.StatusCode, IssueType: in.IssueType, Check: in.Check, Indexable: in.Indexable,
			SortBy: sortBy, Sort: in.Sort, PerPage: in.PerPage, Page: in.Page})
		if err != nil {
			return nil, toHTTP(err)
		}
		pages, total, err := cs.Pages(ctx, caller(ctx).User.ID, in.ID, q)
		if err != nil {
			return nil, toHTTP(err)
		}
		out := crawlPagesData{Pages: make([]wire.CrawlPageItem, 0, len(pages)), Meta: metaOf(q.Page, total)}
		for _, p := range pages {
			out.Pages = append(out.Pages, crawlPageItemOf(p))
		}
		return ok(out), nil
	})
	op = huma.Operation{OperationID: "get-crawl-page", Method: http.MethodGet, Path: "/crawls/{id}/pages/{page}", Tags: tags,
		Summary: "Fetch one crawled page with its full audit",
		Description: "The page's record and its audit: every check as a report shows it. Another user's crawl, or a " +
			"page id of another crawl, is 404. " + scoreDoc}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *crawlPageInput) (*reply[crawlPageData], error) {
		p, err := cs.Page(ctx, caller(ctx).User.ID, in.ID, in.Page)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(crawlPageData{CrawlPageItem: crawlPageItemOf(p), Links: list(p.Page.Links()), Results: resultsDataOf(p.Results), Rendering: p.Rendering}), nil
	})
}

func registerCrawlIssues(g huma.API, cs *crawls.Crawls, acc *accounts.Accounts) {
	tags := []string{"Crawls"}
	op := huma.Operation{OperationID: "list-crawl-issues", Method: http.MethodGet, Path: "/crawls/{id}/issues", Tags: tags,
		Summary: "List the site-level issues a crawl found",
		Description: "Issues no single page shows, found when the crawl ends, in catalogue order then by URL, each " +
			"with a detail, its related URLs and advice. Types: " + issueTypesDoc() + ". " + duplicateContentDoc + " Another user's crawl is " +
			"404. data: {issues, meta}."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *crawlIssuesInput) (*reply[crawlIssuesData], error) {
		q, err := crawls.NewIssueQuery(crawls.IssueParams{Type: in.Type, Severity: in.Severity, PerPage: in.PerPage, Page: in.Page})
		if err != nil {
			return nil, toHTTP(err)
		}
		issues, total, err := cs.Issues(ctx, caller(ctx).User.ID, in.ID, q)
		if err != nil {
			return nil, toHTTP(err)
		}
		out := crawlIssuesData{Issues: make([]crawlIssueData, 0, len(issues)), Meta: metaOf(q.Page, total)}
		for _, i := range issues {
			out.Issues = append(out.Issues, crawlIssueOf(i))
		}
		return ok(out), nil
	})
	op = huma.Operation{OperationID: "diff-crawl", Method: http.MethodGet, Path: "/crawls/{id}/diff", Tags: tags,
		Summary: "Compare a crawl's issues with an earlier crawl's",
		Description: "Issues new (in this crawl only), fixed (in the other only) and persisting (in both), by type and " +
			"with their URLs; an issue is the same in both when its type and URL are (and, for a robots.txt line, the " +
			"line's text). Either crawl being another user's is 404."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *crawlDiffInput) (*reply[crawlDiffData], error) {
		d, err := cs.Diff(ctx, caller(ctx).User.ID, in.ID, in.Against)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(crawlDiffData{Crawl: d.Crawl.ID, Against: d.Against.ID, New: diffTypesOf(d.New), Fixed: diffTypesOf(d.Fixed),
			Persisting: diffTypesOf(d.Persisting)}), nil
	})
}

// duplicateContentDoc says when two pages' text is nearly the same.
const duplicateContentDoc = "duplicate_content: two indexable pages whose visible <body> text (scripts, styles, noscript and " +
	"templates left out) is the same or nearly the same: the 64-bit SimHash of each page's 3-word shingles (lower-cased " +
	"runs of letters and digits) differs in at most 3 bits (Hamming distance <= 3)."

// issueTypesDoc lists the issue types with their severities, those only
// rendered crawls find last.
func issueTypesDoc() string {
	list := func(defs []crawl.IssueDef) string {
		s := ""
		for i, d := range defs {
			if i > 0 {
				s += ", "
			}
			s += string(d.Type) + " (" + string(d.Severity) + ")"
		}
		return s
	}
	return list(crawl.Catalogue) + "; in rendered crawls (render on or auto) also " + list(crawl.RenderedCatalogue)
}

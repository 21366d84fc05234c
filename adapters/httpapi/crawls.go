package httpapi

import (
	"context"
	"net/http"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
)

// crawlDoc explains what a crawl is, wherever one is created or read.
const crawlDoc = "A crawl audits a whole site: from url it follows links (a[href], rel=canonical, hreflang " +
	"alternates, rel=next/prev) and the sitemaps (robots.txt Sitemap lines and /sitemap.xml, indexes, gzip) on the " +
	"same host (or the registrable domain with subdomains), honouring robots.txt for the crawler's user agent " +
	"(with Crawl-delay), include/exclude and the limits; every URL is normalised and fetched once, through the " +
	"same guard against private addresses as reports; every HTML page gets the page audit of a report. When it " +
	"ends it finds the site-level issues (GET /crawls/{id}/issues), the average score, and the site's readiness " +
	"for AI crawlers (robots.txt rules for each well-known AI user agent, /llms.txt). A crawl is a durable job: " +
	"it survives a restart of the server and resumes where it was. At most one crawl per politeness unit runs at " +
	"once, across all users: the start URL's origin (scheme, host and port), or its registrable domain with " +
	"subdomains. Users take turns: a crawl runs in slices of 20 s and at the end of one gives the unit to another " +
	"user's crawl waiting for it, so a waiting crawl gets its first page within one 30 s turn; each keeps its own " +
	"delay_ms and Crawl-delay. Crawl workers are shared the same way: while all are busy, a crawl gives its worker " +
	"to another user's waiting crawl at the end of its slice."

type crawlIDInput struct {
	ID int64 `path:"id" doc:"Crawl id."`
}

type crawlCreateInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Optional name of this creation request, chosen by the client (a UUID, say): 1 to 255 printable ASCII characters, else 422 on Idempotency-Key. Sent again by the same user within 24 hours with the same body, the request creates nothing and answers 202 with the crawl as it is now (Idempotent-Replayed: true), or 404 if it was deleted since; with another body it is 422 on Idempotency-Key; while the first request still runs it is 409 with Retry-After. Keys are shared with report creation."`
	Body           struct {
		URL         string            `json:"url" minLength:"1" maxLength:"2048" doc:"The start URL: http or https, with a host name."`
		MaxPages    *int              `json:"max_pages,omitempty" minimum:"1" maximum:"10000" doc:"At most this many URLs are fetched (default 500); the crawl keeps at most 10 x max_pages URLs found (the rest counted in pages.not_queued). Charged to the caller's daily page quota when the crawl is accepted; those not crawled go back to it when the crawl ends."`
		MaxDepth    *int              `json:"max_depth,omitempty" minimum:"0" maximum:"100" doc:"Links are followed at most this many clicks from url (default 10; 0: url alone, and the sitemaps)."`
		Concurrency *int              `json:"concurrency,omitempty" minimum:"1" maximum:"8" doc:"Requests to the site at once, robots.txt and sitemaps included (default 2)."`
		DelayMS     *int              `json:"delay_ms,omitempty" minimum:"0" maximum:"10000" doc:"Pause between two requests to the site in milliseconds (default 0), besides robots.txt's Crawl-delay."`
		Include     []string          `json:"include,omitempty" maxItems:"20" doc:"Only paths matching one of these patterns are crawled (url itself always is): robots.txt patterns (start with / or *, * matches anything, $ only at the end anchors it), each at most 256 bytes. A plain prefix such as /blog/ matches what starts with it."`
		Exclude     []string          `json:"exclude,omitempty" maxItems:"20" doc:"Paths matching one of these patterns are not crawled; the same pattern syntax as include."`
		Subdomains  bool              `json:"subdomains,omitempty" doc:"Crawl the registrable domain of url with all its subdomains, not only url's host (default false)."`
		Headers     map[string]string `json:"headers,omitempty" doc:"Up to 5 request headers (a Cookie, an Authorization) for a site behind a login: sent only to url's host, never to another host or a redirect off it, never stored past the crawl's end, never shown back or logged. Host, User-Agent, Accept-Encoding, hop-by-hop and body-framing headers are refused; names are 1 to 64 token characters, values 1 to 8192 printable ASCII characters."`
		Privacy     *int              `json:"privacy,omitempty" enum:"0,1,2" doc:"0 public, 1 private (default), 2 password, as reports."`
		Password    *string           `json:"password,omitempty" maxLength:"1024" doc:"Required with privacy 2, refused otherwise; the rules of report share passwords."`
		Render      *string           `json:"render,omitempty" enum:"off,on,auto" doc:"Render the crawl's HTML pages in a browser (Chromium) as well: off (the default), on (every HTML page) or auto (pages whose HTML looks like an application shell, by the rule of rendered reports). A rendered page is audited as the browser rendered it (with the rendered-only checks), its links are followed from the rendered DOM (found_by_js marks URLs only a rendered DOM links to), and the crawl finds the rendered issue types (content_needs_js, rendered_canonical_differs, rendered_noindex_differs, js_errors, blocked_resources, slow_lcp, layout_shift). on is 422 where no browser can run; auto then audits the HTML. A rendered crawl's max_pages is charged to the daily quota of rendered pages too (shared with rendered reports; at most that quota, else 422 on max_pages), and what it did not crawl goes back."`
		Schedule    string            `json:"schedule,omitempty" enum:"daily,weekly,off" doc:"Crawl the site again by itself daily or weekly (off: never, the default), as a report's schedule: one period after this crawl is accepted, and then every period, once this crawl and its previous run have ended, a new crawl with the same settings is created (its scheduled_from names this crawl; the diff of each run against the previous finished crawl of the same start URL shows what changed). Each run is charged to the daily page quota and counted against the active crawls cap when it starts: a run the quota refuses waits until it fits, one the cap refuses 15 minutes. Refused with headers (422 on schedule): request headers are never kept past a crawl's end, so its runs could not send them. PATCH /crawls/{id} changes or stops the schedule."`
	}
}

type crawlUpdateInput struct {
	ID   int64 `path:"id" doc:"Crawl id."`
	Body struct {
		Schedule string `json:"schedule" enum:"daily,weekly,off" doc:"The crawl's new schedule: daily or weekly (the next run one period from now) or off (no more runs; the runs already created stay). A crawl without a schedule cannot be given one (422 on schedule): create a new crawl with it."`
	}
}

// params is the crawl the request asks for.
func (in *crawlCreateInput) params() crawl.Params {
	b := in.Body
	return crawl.Params{URL: b.URL, MaxPages: b.MaxPages, MaxDepth: b.MaxDepth, Concurrency: b.Concurrency, DelayMS: b.DelayMS,
		Include: b.Include, Exclude: b.Exclude, Subdomains: b.Subdomains, Headers: b.Headers, Privacy: b.Privacy, Password: b.Password,
		Schedule: b.Schedule, Render: b.Render}
}

type crawlListInput struct {
	Status  string `query:"status" enum:"queued,running,finished,cancelled,failed" doc:"Only crawls in this status."`
	Search  string `query:"search" maxLength:"2048" doc:"Free text matched in the crawled site, ignoring case and a leading www. A NUL character or invalid UTF-8 is 422."`
	SortBy  string `query:"sort_by" enum:"created_at,pages,score" default:"created_at" doc:"pages sorts by the URLs crawled. Ties are broken by id."`
	Sort    string `query:"sort" enum:"desc,asc" default:"desc" doc:"Direction of sort_by."`
	PerPage int    `query:"per_page" enum:"10,25,50,100" default:"10" doc:"Items per page."`
	Page    int    `query:"page" minimum:"1" default:"1" doc:"A page beyond the last is an empty list."`
}

// createdCrawlReply is the answer of create-crawl.
type createdCrawlReply struct {
	Status   int    `json:"-"`
	Replayed string `header:"Idempotent-Replayed" doc:"true when the answer replays an earlier request with the same Idempotency-Key (the crawl as it is now); absent otherwise."`
	Location string `header:"Location" doc:"The path of the crawl, /crawls/{id}."`
	Body     envelope[crawlData]
}

// crawlPath is the Location of a crawl (after the base path).
func crawlPath(id int64) string { return prefix + "/crawls/" + strconv.FormatInt(id, 10) }

// crawlQuotaDoc describes the crawl quotas.
const crawlQuotaDoc = "A crawl's max_pages is charged to the caller's daily page quota (10,000 pages in 24 hours " +
	"by default; the server's --crawl-daily-pages) when it is accepted: beyond, 429 with Retry-After, and a " +
	"max_pages above the whole quota is 422. When the crawl ends (finished, cancelled or failed) or is deleted, " +
	"the pages it did not crawl go back to the quota, once, as far as the day since it was accepted has not " +
	"given them back already; a crawl refused (429 for the active crawls cap) gives back all of them. At most 3 of a caller's crawls may be queued or running at once: a " +
	"fourth is 429 until one ends."

func registerCrawls(api huma.API, cs *crawls.Crawls, acc *accounts.Accounts) {
	g, base := group(api), mountPath(api)
	tags := []string{"Crawls"}
	op := huma.Operation{OperationID: "create-crawl", Method: http.MethodPost, Path: "/crawls", Tags: tags,
		DefaultStatus: http.StatusAccepted, Summary: "Start a crawl: audit a whole site",
		Description: crawlDoc + " Answers 202 with the crawl queued and a Location header naming it; poll GET " +
			"/crawls/{id} until status is finished, cancelled or failed. Every invalid field is reported at once " +
			"(422). A URL the SSRF guard refuses (loopback, private or metadata addresses, written or looked up, localhost; " +
			"ports other than 80 and 443; a host name that does not exist) is 422 on url, nothing queued, the reason naming " +
			"the serve flag that lets it through (--allow-target, --allow-port) when one does. " + crawlQuotaDoc}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *crawlCreateInput) (*createdCrawlReply, error) {
		c, err := cs.CreateOnce(ctx, caller(ctx).User.ID, in.params(), in.IdempotencyKey)
		if err != nil {
			return nil, toHTTP(err)
		}
		out := &createdCrawlReply{Status: http.StatusAccepted, Location: base + crawlPath(c.ID),
			Body: envelope[crawlData]{Success: true, Data: crawlDataOf(c.Crawl, base)}}
		if c.Replayed {
			out.Replayed = "true"
		}
		return out, nil
	})
	op = huma.Operation{OperationID: "list-crawls", Method: http.MethodGet, Path: "/crawls", Tags: tags,
		Summary: "List the caller's crawls",
		Description: "Filters combine. Invalid values are 422, never replaced by defaults. Items carry every " +
			"crawl field but what it found (fetch one crawl for its issue counts). data: {crawls, meta: {total, " +
			"per_page, current_page, last_page}}."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *crawlListInput) (*reply[crawlsData], error) {
		q, err := crawl.NewListQuery(crawl.ListParams{Status: in.Status, Search: in.Search, SortBy: in.SortBy, Sort: in.Sort,
			PerPage: in.PerPage, Page: in.Page})
		if err != nil {
			return nil, toHTTP(err)
		}
		list, total, err := cs.List(ctx, caller(ctx).User.ID, q)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(crawlsDataOf(list, total, q, base)), nil
	})
	op = huma.Operation{OperationID: "get-crawl", Method: http.MethodGet, Path: "/crawls/{id}", Tags: tags,
		Summary: "Fetch one of the caller's crawls",
		Description: "Status, times, progress, and once it ends the site score and rating, the issues found by " +
			"type with their severity and count, how many pages fail each page check, and the site's readiness for " +
			"AI crawlers. Another user's crawl is 404. " + crawlDoc}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *crawlIDInput) (*reply[crawlData], error) {
		c, err := cs.Get(ctx, caller(ctx).User.ID, in.ID)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(crawlDataOf(c, base)), nil
	})
	op = huma.Operation{OperationID: "update-crawl", Method: http.MethodPatch, Path: "/crawls/{id}", Tags: tags,
		Summary: "Change or stop a crawl's schedule",
		Description: "schedule daily or weekly changes the period of the crawl's schedule, its next run one period " +
			"from now; off stops it (the crawls it already started stay). The same schedule again changes nothing. " +
			"A crawl without a schedule (created without one, or turned off) cannot be given one: 422 on schedule. " +
			"Answers the crawl. Another user's crawl is 404."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *crawlUpdateInput) (*reply[crawlData], error) {
		c, err := cs.SetSchedule(ctx, caller(ctx).User.ID, in.ID, in.Body.Schedule)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(crawlDataOf(c, base)), nil
	})
	op = huma.Operation{OperationID: "cancel-crawl", Method: http.MethodPost, Path: "/crawls/{id}/cancel", Tags: tags,
		Summary: "Cancel one of the caller's crawls",
		Description: "A queued crawl is cancelled at once, and so is a running one that no run holds (its job waits to " +
			"retry, or its process stopped); a running one being crawled stops within 5 seconds and keeps what it " +
			"found (its status becomes cancelled then; the answer may still say running). A cancelled crawl never runs again. A crawl already " +
			"finished, cancelled or failed is 409. Another user's crawl is 404."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *crawlIDInput) (*reply[crawlData], error) {
		c, err := cs.Cancel(ctx, caller(ctx).User.ID, in.ID)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(crawlDataOf(c, base)), nil
	})
	op = huma.Operation{OperationID: "delete-crawl", Method: http.MethodDelete, Path: "/crawls/{id}", Tags: tags,
		Summary:     "Delete one of the caller's crawls",
		Description: "Cancels it if it runs and deletes it with its pages, links and issues. Another user's crawl is 404."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *crawlIDInput) (*reply[deletedData], error) {
		if err := cs.Delete(ctx, caller(ctx).User.ID, in.ID); err != nil {
			return nil, toHTTP(err)
		}
		return ok(deletedData{ID: in.ID, Deleted: true}), nil
	})
	registerCrawlPages(g, cs, acc)
	registerCrawlIssues(g, cs, acc)
	registerCrawlExport(g, cs, acc)
}

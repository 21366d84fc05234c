// Package wire holds the JSON shapes of package httpapi that are embedded
// in its answers and inputs (huma reads the fields of an embedded struct
// only when its type is exported) or decoded by its test helpers. They are
// exported here, where only the transport and its tests see them; the
// OpenAPI schemas take the types' names.
package wire

import (
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
)

// NearbyOffice is the reduced office record of the nearby lists.
type NearbyOffice struct {
	ID              int64        `json:"id"`
	Pincode         string       `json:"pincode"`
	PostOffice      string       `json:"post_office"`
	BranchType      string       `json:"branch_type" enum:"Head Office,Sub Office,Branch Office"`
	DeliveryStatus  string       `json:"delivery_status" enum:"Delivery,Non Delivery"`
	District        *string      `json:"district" doc:"LGD name; null when unknown."`
	State           *string      `json:"state" doc:"LGD name; null when unknown."`
	Location        LocationData `json:"location"`
	LocationQuality string       `json:"location_quality" enum:"exact,corrected,approximate" doc:"approximate: a placeholder shared by 10+ offices or 50+ km from its PIN's other offices."`
	DistanceKm      float64      `json:"distance_km" doc:"Great-circle (Haversine, R = 6371.0088 km) distance, rounded to the metre."`
	FeedbackData
}

// PageParams are the pagination query parameters of postal lists. Their
// bounds (at most 100 items a page) are the API's, in the schema: huma
// answers 422 beyond them; the use cases take any page size.
type PageParams struct {
	Page    int `query:"page" default:"1" minimum:"1" doc:"Page number; beyond the last page the list is empty."`
	PerPage int `query:"per_page" default:"10" minimum:"1" maximum:"100" doc:"Items per page, 1 to 100."`
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
	Render      string     `json:"render" enum:"off,on,auto" doc:"How the report's analyses load the page: off (the HTML the server sent), on (rendered in a browser too, always), auto (rendered when the HTML the server sent looks like an application shell)."`
	Rendered    bool       `json:"rendered" doc:"Whether the current analysis audited the page as the browser rendered it; rendering.reason says why it did or did not."`
	Screenshot  string     `json:"screenshot" enum:"viewport,full" doc:"Which screenshots the report's rendered analyses keep: viewport (the first screen) or full (the whole page too)."`
	GeneratedAt time.Time  `json:"generated_at" doc:"When the analysis ran (for a report not generated yet, the time of its creation)."`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
}

// LocationData is a point in decimal degrees.
type LocationData struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// FeedbackData are the live review and like counts of an office record.
type FeedbackData struct {
	ReviewsCount int      `json:"reviews_count" doc:"Reviews of the office by users (PUT /post-offices/{id}/review), live."`
	LikesCount   int      `json:"likes_count" doc:"Users who like the office (PUT /post-offices/{id}/like), live."`
	Rating       *float64 `json:"rating" doc:"Average rating of the reviews (1 to 5, rounded to 2 decimals); null when there is no review."`
}

// UserData is a user as the API shows it.
type UserData struct {
	ID        int64     `json:"id"`
	Email     string    `json:"email"`
	CreatedAt time.Time `json:"created_at"`
}

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

// ReportData is one report with its checks.
type ReportData struct {
	ReportItem
	Results ResultsData `json:"results"`
	// Rendering is what the browser showed, for a report whose analysis
	// rendered or might have (render on or auto).
	Rendering *pagecheck.Rendering `json:"rendering,omitempty" doc:"What the browser showed of the page, for an analysis with render on or auto: raw versus rendered (compare, and the flags of what JavaScript added or changed), what the page loaded (requests by type, failed, refused and robots-blocked requests, console errors), lab performance (TTFB, FCP, LCP, CLS, TBT, DOM size with Lighthouse's bands); for one that did not render, only rendered false and reason. Absent with render off."`
	// Screenshots are the paths of the screenshots the report keeps.
	Screenshots *ScreenshotsData `json:"screenshots,omitempty" doc:"The screenshots the current analysis' render kept, as paths of GET /reports/{id}/screenshot (JPEG, with the caller's key); absent when it kept none (it did not render, or the browser took none)."`
}

// ScreenshotsData are the paths of a report's screenshots, each absent
// when the report keeps none of its kind.
type ScreenshotsData struct {
	Viewport string `json:"viewport,omitempty" doc:"The first screen (the browser's viewport, 1350 x 940 CSS pixels by default), at most 300 KiB: /api/v1/reports/{id}/screenshot?kind=viewport, after the API's base path."`
	Full     string `json:"full,omitempty" doc:"The whole page (at most 16,384 CSS pixels high), at most 2 MiB, kept with screenshot=full: /api/v1/reports/{id}/screenshot?kind=full."`
}

// ReportsData is a page of reports.
type ReportsData struct {
	Reports []ReportItem `json:"reports"`
	Meta    Meta         `json:"meta"`
}

// Meta is the pagination block of every paginated list.
type Meta struct {
	Total       int `json:"total"`
	PerPage     int `json:"per_page"`
	CurrentPage int `json:"current_page"`
	LastPage    int `json:"last_page"`
}

// KeyData describes an API key without the key itself.
type KeyData struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	Prefix     string     `json:"prefix" doc:"The key's first characters, to recognise it."`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
}

// TokenData is a newly minted key: the token is shown this once.
type TokenData struct {
	Token     string   `json:"token" doc:"The API key: send it as Authorization: Bearer <token>. Shown once."`
	TokenType string   `json:"token_type" example:"Bearer"`
	Key       KeyData  `json:"key"`
	User      UserData `json:"user"`
}

// Paging is the page the parameters ask for.
func (p PageParams) Paging() paging.Page { return paging.Page{Number: p.Page, PerPage: p.PerPage} }

package httpapi

import (
	"errors"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/app/releases"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/app/reviews"
	"github.com/pinsight/pinsight/app/webhooks"
)

// Routes holds the use cases the operations call, and so says what the API
// serves. Health and the DIGIPIN codec operations (encode, decode,
// validate, info, neighbours, their batches and bulk files) are always
// served. Every
// other use case serves its group of operations when set and none of them
// when nil (they then answer 404, as unknown routes do):
//
//   - Directory: the postal operations: pincode lookups, details,
//     villages, search, batches, bulk files and validation, states and districts,
//     the dataset, offices near a point (pincode-nearby) and
//     get-post-office.
//   - Geocoder: digipin-nearest, which needs Directory too.
//   - Accounts: register, login, the account and its API keys.
//   - Reports: the report operations and the public report page /r/{token};
//     they need Accounts.
//   - Projects: the project operations; they need Accounts.
//   - Reviews: the review and like operations; they need Accounts.
//   - Webhooks: the webhook operations; they need Accounts.
//   - Crawls: the crawl operations; they need Accounts.
//
// A use case set without one its operations need is an error of Handler
// and Register naming those operations: an operation is never left out
// silently. app/postaldir's Open returns a Directory and a Geocoder over
// the same offices, which serve every postal and DIGIPIN operation.
type Routes struct {
	Health    *health.Health // nil: Handler uses an always-ready one
	Accounts  *accounts.Accounts
	Directory *directory.Directory
	Geocoder  *geocode.Geocoder
	Reports   *reports.Reports
	Projects  *reports.Projects
	// Reviews' directory should be Directory, so the counts it writes show.
	Reviews  *reviews.Reviews
	Webhooks *webhooks.Webhooks
	Crawls   *crawls.Crawls
	// Releases serves the directory's release changes (nil: not served).
	Releases *releases.History
	Share    sharepage.Options // the public report page's settings
	// Version is the server build's version /readyz shows ("": none shown).
	Version string
	// BodyCache holds the encoded answers of the postal reads (nil: Register
	// makes one of DefaultBodyCacheBytes); Register drops a PIN's entries
	// when Directory says its offices' counts changed.
	BodyCache *BodyCache
}

// routeGroup is the operations one use case of Routes serves.
type routeGroup struct {
	field string   // the Routes field that serves the group
	set   bool     // whether it is set
	ops   []string // the group's operation IDs (and pages), for errors
	needs []need   // the other use cases its operations need
}

// need is a use case a group needs besides its own.
type need struct {
	field string
	set   bool
}

// groups lists the groups of operations r may serve.
func (r Routes) groups() []routeGroup {
	accounts := need{"Accounts", r.Accounts != nil}
	return []routeGroup{
		{field: "Geocoder", set: r.Geocoder != nil, ops: []string{"digipin-nearest"},
			needs: []need{{"Directory", r.Directory != nil}}},
		{field: "Releases", set: r.Releases != nil, ops: []string{"dataset-changes"},
			needs: []need{{"Directory", r.Directory != nil}}},
		{field: "Reports", set: r.Reports != nil, needs: []need{accounts}, ops: []string{
			"create-report", "create-report-batch", "list-reports", "get-report", "update-report",
			"delete-report", "get-report-history", "get-report-screenshot", "the report page " + sharepage.Prefix + "{token}"}},
		{field: "Projects", set: r.Projects != nil, needs: []need{accounts}, ops: []string{"list-projects", "delete-project"}},
		{field: "Reviews", set: r.Reviews != nil, needs: []need{accounts}, ops: []string{
			"list-office-reviews", "get-my-review", "put-review", "delete-review", "like-office", "unlike-office",
			"list-my-reviews"}},
		{field: "Webhooks", set: r.Webhooks != nil, needs: []need{accounts}, ops: []string{
			"create-webhook", "list-webhooks", "delete-webhook", "list-webhook-deliveries"}},
		{field: "Crawls", set: r.Crawls != nil, needs: []need{accounts}, ops: []string{
			"create-crawl", "list-crawls", "get-crawl", "update-crawl", "cancel-crawl", "delete-crawl", "list-crawl-pages",
			"get-crawl-page", "list-crawl-issues", "export-crawl", "diff-crawl"}},
	}
}

// check refuses a use case set without one its operations need, naming
// the operations.
func (r Routes) check() error {
	var errs []error
	for _, g := range r.groups() {
		if !g.set {
			continue
		}
		for _, n := range g.needs {
			if !n.set {
				errs = append(errs, errors.New("httpapi: Routes."+g.field+" is set without Routes."+n.field+
					", which its operations need: "+strings.Join(g.ops, ", ")))
			}
		}
	}
	return errors.Join(errs...)
}

// Register adds the operations r serves to api (see Routes); it registers
// nothing and fails when a use case of r lacks one its operations need.
func Register(api huma.API, r Routes) error {
	if err := r.check(); err != nil {
		return err
	}
	registerHealth(api, r.Health, r.Version)
	registerDigipin(api)
	registerBulk(api, r.Directory)
	if r.Directory != nil {
		cache := r.BodyCache
		if cache == nil {
			cache = NewBodyCache(0)
		}
		r.Directory.OnCountsChanged(dropCounts(cache))
		registerPostal(api, r.Directory, cache)
		registerOfficeByID(api, r.Directory)
		registerNearby(api, r.Directory)
		registerAutocomplete(api, r.Directory)
		registerDistance(api, r.Directory)
		registerDigipinOffices(api, r.Directory, cache)
		if r.Geocoder != nil {
			registerDigipinNearest(api, r.Directory, r.Geocoder)
		}
		if r.Releases != nil {
			registerDatasetChanges(api, r.Releases)
		}
	}
	if r.Accounts != nil {
		registerAccounts(api, r.Accounts)
		registerSiteAnalysis(api, r)
		if r.Reviews != nil {
			registerReviews(api, r.Reviews, r.Accounts)
		}
		if r.Webhooks != nil {
			registerWebhooks(api, r.Webhooks, r.Accounts)
		}
		if r.Crawls != nil {
			registerCrawls(api, r.Crawls, r.Accounts)
		}
	}
	addTags(api)
	describeSchemas(api.OpenAPI().Components.Schemas)
	nullableObjects(api.OpenAPI().Components.Schemas)
	addExamples(api)
	return nil
}

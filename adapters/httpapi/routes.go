package httpapi

import (
	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/app/reviews"
	"github.com/pinsight/pinsight/app/webhooks"
)

// Routes holds the use cases the operations call.
type Routes struct {
	Health    *health.Health
	Accounts  *accounts.Accounts   // nil: the account operations are not registered
	Directory *directory.Directory // nil: the postal operations are not registered
	Geocoder  *geocode.Geocoder    // nil: /pincodes/nearby and /digipin/nearest are not registered
	Reports   *reports.Reports     // nil (or no Accounts): the report operations and page are not registered
	Projects  *reports.Projects    // nil (or no Accounts): the project operations are not registered
	// Reviews (with Accounts) registers the review and like operations; its
	// directory should be Directory, so the counts it writes show.
	Reviews *reviews.Reviews
	// Webhooks (with Accounts) registers the webhook operations.
	Webhooks *webhooks.Webhooks
	Share    sharepage.Options // the public report page's settings
	// BodyCache holds the encoded answers of the postal reads (nil: Register
	// makes one of DefaultBodyCacheBytes); Register drops a PIN's entries
	// when Directory says its offices' counts changed.
	BodyCache *BodyCache
}

// Register adds every operation to api.
func Register(api huma.API, r Routes) {
	registerHealth(api, r.Health)
	registerDigipin(api)
	if r.Directory != nil {
		cache := r.BodyCache
		if cache == nil {
			cache = NewBodyCache(0)
		}
		r.Directory.OnCountsChanged(dropCounts(cache))
		registerPostal(api, r.Directory, cache)
		registerOfficeByID(api, r.Directory)
		if r.Geocoder != nil {
			registerGeo(api, r.Directory, r.Geocoder)
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
	}
}

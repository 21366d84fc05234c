package httpapi

import (
	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app"
	"github.com/pinsight/pinsight/ports"
)

// Routes holds the use cases the operations call.
type Routes struct {
	Health   *app.Health
	Accounts *app.Accounts // nil: the account operations are not registered
	Postal   *app.Postal   // nil: the postal operations are not registered
	Reports  *app.Reports  // nil (or no Accounts): the report operations and page are not registered
	Projects *app.Projects // nil (or no Accounts): the project operations are not registered
	Share    ShareOptions  // the public report page's settings
	// Boundaries are the PIN boundary polygons for /digipin/nearest; nil:
	// distance alone.
	Boundaries ports.BoundaryIndex
}

// Register adds every operation to api.
func Register(api huma.API, r Routes) {
	registerHealth(api, r.Health)
	registerDigipin(api)
	if r.Postal != nil {
		registerPostal(api, r.Postal)
		registerGeo(api, r.Postal, r.Boundaries)
	}
	if r.Accounts != nil {
		registerAccounts(api, r.Accounts)
		registerSiteAnalysis(api, r)
	}
}

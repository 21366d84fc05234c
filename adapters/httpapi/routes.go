package httpapi

import (
	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app"
)

// Routes holds the use cases the operations call.
type Routes struct {
	Health   *app.Health
	Accounts *app.Accounts // nil: the account operations are not registered
	Postal   *app.Postal   // nil: the postal operations are not registered
}

// Register adds every operation to api.
func Register(api huma.API, r Routes) {
	registerHealth(api, r.Health)
	registerDigipin(api)
	if r.Postal != nil {
		registerPostal(api, r.Postal)
	}
	if r.Accounts != nil {
		registerAccounts(api, r.Accounts)
	}
}

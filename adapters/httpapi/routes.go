package httpapi

import (
	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app"
)

// Routes holds the use cases the operations call.
type Routes struct {
	Health *app.Health
}

// Register adds every operation to api.
func Register(api huma.API, r Routes) {
	registerHealth(api, r.Health)
	registerDigipin(api)
}

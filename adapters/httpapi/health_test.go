package httpapi_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/app"
)

func TestHealth(t *testing.T) {
	h := newHandler(t, httpapi.Routes{})
	if res := do(t, h, http.MethodGet, "/healthz", "", ""); res.Status != http.StatusOK {
		t.Errorf("GET /healthz = %d, want 200", res.Status)
	}
	up := app.Component{Name: "db", Check: func(context.Context) error { return nil },
		Describe: func(context.Context) string { return "serving db 1" }}
	down := app.Component{Name: "postal_data", Check: func(context.Context) error { return errors.New("not loaded") }}

	res := do(t, newHandler(t, httpapi.Routes{Health: app.NewHealth([]app.Component{up})}), http.MethodGet, "/readyz", "", "")
	var d httpapi.ReadyData
	res.data(t, &d)
	if res.Status != http.StatusOK || !d.Ready || len(d.Components) != 1 || d.Components[0].Name != "db" || d.Components[0].Detail != "serving db 1" {
		t.Errorf("GET /readyz (all up) = %d %+v, want 200 listing db with what it serves", res.Status, d)
	}
	res = do(t, newHandler(t, httpapi.Routes{Health: app.NewHealth([]app.Component{up, down})}), http.MethodGet, "/readyz", "", "")
	if res.Status != http.StatusServiceUnavailable || res.Code != "unavailable" || len(res.Errors["postal_data"]) != 1 || res.Errors["db"] != nil {
		t.Errorf("GET /readyz (one down) = %d %q %v, want 503 naming postal_data only", res.Status, res.Code, res.Errors)
	}
}

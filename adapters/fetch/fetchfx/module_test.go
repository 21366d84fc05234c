package fetchfx_test

import (
	"context"
	"errors"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/fetch/fetchfx"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

func TestModuleProvidesTheGuardedFetcher(t *testing.T) {
	var pf ports.PageFetcher
	app := fxtest.New(t, fx.Supply(fetch.Config{}), fetchfx.Module, fx.Populate(&pf))
	app.RequireStart()
	defer app.RequireStop()
	if _, ok := pf.(*fetch.Fetcher); !ok {
		t.Fatalf("PageFetcher is %T", pf)
	}
	_, err := pf.Fetch(context.Background(), "http://127.0.0.1/", nil)
	var fe *webpage.FetchError
	if !errors.As(err, &fe) || !fe.Refused {
		t.Errorf("the module's fetcher fetched a loopback address: %v", err)
	}
}

func TestModuleFailsOnABadConfig(t *testing.T) {
	err := fx.New(fx.NopLogger, fx.Supply(fetch.Config{AllowTargets: []string{"nope"}}), fetchfx.Module,
		fx.Invoke(func(ports.PageFetcher) {})).Err()
	if err == nil {
		t.Error("a malformed allow-list built a fetcher")
	}
}

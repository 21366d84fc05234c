package main

import (
	"fmt"

	"github.com/spf13/pflag"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/boundary"
	"github.com/pinsight/pinsight/ports"
)

// boundaryConfig names the PIN boundary file of /digipin/nearest.
type boundaryConfig struct {
	File     string
	Property string
}

func boundaryFlags(f *pflag.FlagSet, c *boundaryConfig) {
	f.StringVar(&c.File, "boundaries", "", "GeoJSON (or .gz) of PIN boundary polygons: /digipin/nearest then ranks the offices of the containing PIN first")
	f.StringVar(&c.Property, "boundary-property", boundary.DefaultProperty, "feature property holding the pincode in --boundaries")
}

// boundaryOptions loads the file (a bad file fails the start) and provides
// it as the BoundaryIndex; nothing when no file is named.
func boundaryOptions(c boundaryConfig) (fx.Option, error) {
	if c.File == "" {
		return fx.Options(), nil
	}
	b, err := boundary.Load(c.File, c.Property)
	if err != nil {
		return nil, fmt.Errorf("loading --boundaries: %w", err)
	}
	return fx.Supply(fx.Annotate(b, fx.As(new(ports.BoundaryIndex)))), nil
}

package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/digipin"
)

// infoData describes the DIGIPIN system plus a table of its levels.
type infoData struct {
	Description     string            `json:"description"`
	Bounds          boundsData        `json:"bounds"`
	Grid            [4][4]string      `json:"grid" doc:"Rows north to south, columns west to east."`
	ValidCharacters []string          `json:"valid_characters"`
	Format          string            `json:"format"`
	Endpoints       map[string]string `json:"endpoints" doc:"The DIGIPIN operations, keyed encode, decode, info, validate and nearest: paths relative to /api/v1, as the seed gives them (/digipin/encode)."`
	Levels          []levelData       `json:"levels" doc:"Cell size at each code length."`
}

// levelData is the cell size of codes (or prefixes) of one length.
type levelData struct {
	Level            int     `json:"level"`
	CellSizeDegrees  float64 `json:"cell_size_degrees"`
	ApproxCellSizeM  float64 `json:"approx_cell_size_m" doc:"North-south extent in metres (east-west shrinks with cos(latitude))."`
	ApproxCellAreaM2 float64 `json:"approx_cell_area_m2" doc:"Area at the equator in square metres."`
}

// infoAnswer is the info answer, computed once: it never changes.
var infoAnswer = func() infoData {
	d := infoData{
		Description: "DIGIPIN is India Post's open national geocode: the bounding box is divided 4x4 ten times " +
			"and each level adds one of 16 characters, giving a cell of about 3.8 m x 3.8 m.",
		Bounds: boundsDataOf(digipin.GridBounds()),
		Format: "XXX-XXX-XXXX",
		Endpoints: map[string]string{
			"encode": "/digipin/encode", "decode": "/digipin/decode", "info": "/digipin/info",
			"validate": "/digipin/validate", "nearest": "/digipin/nearest",
		},
	}
	for r, row := range digipin.Grid() {
		for c, sym := range row {
			d.Grid[r][c] = string(sym)
		}
	}
	for _, sym := range digipin.Alphabet {
		d.ValidCharacters = append(d.ValidCharacters, string(sym))
	}
	for level := 1; level <= digipin.Levels; level++ {
		deg := digipin.CellSize(level)
		m := deg * metresPerDegree
		d.Levels = append(d.Levels, levelData{Level: level, CellSizeDegrees: deg, ApproxCellSizeM: round6(m), ApproxCellAreaM2: round6(m * m)})
	}
	return d
}()

func registerDigipinInfo(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "digipin-info", Method: http.MethodGet, Path: "/digipin/info",
		Summary: "DIGIPIN specification: bounds, grid, characters, levels", Tags: []string{"DIGIPIN"},
		Description: "Fixed facts of the DIGIPIN grid, the same on every server: the area it covers, its 4 x 4 grid, its 16 symbols and, for each of its 10 levels, the cell size in degrees and approximately in metres.",
	}, func(context.Context, *struct{}) (*reply[infoData], error) {
		return ok(infoAnswer), nil
	})
}

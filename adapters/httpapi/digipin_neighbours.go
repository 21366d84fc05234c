package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/digipin"
)

type neighboursInput struct {
	Code     string `path:"code" maxLength:"40" doc:"A DIGIPIN or a prefix of 1 to 10 symbols, hyphens optional, either case." example:"39J-49L-L8T4"`
	Geometry bool   `query:"geometry" doc:"Also return each cell as a GeoJSON Polygon."`
}

// neighboursData is a cell with the cells around it at the same level.
type neighboursData struct {
	Cell       cellData   `json:"cell"`
	Neighbours []cellData `json:"neighbours" doc:"Clockwise from the north; fewer than 8 at the grid's edge."`
}

// cellData is a grid cell: its symbols, level, centre and extent.
type cellData struct {
	Digipin   string       `json:"digipin" doc:"The cell's symbols, grouped like a code (a prefix for levels below 10)."`
	Level     int          `json:"level" minimum:"1" maximum:"10"`
	Direction string       `json:"direction,omitempty" enum:"N,NE,E,SE,S,SW,W,NW" doc:"Where this neighbour lies; absent for the cell itself."`
	Latitude  float64      `json:"latitude" doc:"Cell centre, 6 decimals."`
	Longitude float64      `json:"longitude" doc:"Cell centre, 6 decimals."`
	Bounds    boundsData   `json:"bounds"`
	Geometry  *geoJSONRect `json:"geometry,omitempty" doc:"The cell as a GeoJSON Polygon (with ?geometry=true)."`
}

func cellDataOf(c digipin.Cell, geometry bool) cellData {
	b := c.Bounds()
	lat, lon := b.Center()
	d := cellData{
		Digipin: c.String(), Level: c.Level(), Latitude: round6(lat), Longitude: round6(lon), Bounds: boundsDataOf(b),
	}
	if geometry {
		d.Geometry = rectGeoJSON(b)
	}
	return d
}

// direction names where cell n lies from cell c (same level, adjacent),
// comparing centres against half a cell so float rounding cannot matter.
func direction(c, n digipin.Rect) string {
	cLat, cLon := c.Center()
	nLat, nLon := n.Center()
	half := (c.MaxLat - c.MinLat) / 2
	s := ""
	switch {
	case nLat-cLat > half:
		s = "N"
	case cLat-nLat > half:
		s = "S"
	}
	switch {
	case nLon-cLon > half:
		s += "E"
	case cLon-nLon > half:
		s += "W"
	}
	return s
}

func registerDigipinNeighbours(g huma.API) {
	huma.Register(g, huma.Operation{
		OperationID: "digipin-neighbours", Method: http.MethodGet, Path: "/digipin/{code}/neighbours", Tags: []string{"DIGIPIN"},
		Summary:     "Cells around a DIGIPIN cell",
		Description: "The up to 8 cells surrounding a code's cell at the same level (a prefix gives a coarser cell). 422 for a bad code.",
	}, func(_ context.Context, in *neighboursInput) (*reply[neighboursData], error) {
		c, err := digipin.ParseCell(in.Code)
		if se, isSyntax := err.(*digipin.SyntaxError); isSyntax {
			return nil, invalid("code", se.Reason())
		} else if err != nil {
			return nil, toHTTP(err)
		}
		d := neighboursData{Cell: cellDataOf(c, in.Geometry), Neighbours: []cellData{}}
		for _, n := range c.Neighbours() {
			nd := cellDataOf(n, in.Geometry)
			nd.Direction = direction(c.Bounds(), n.Bounds())
			d.Neighbours = append(d.Neighbours, nd)
		}
		return ok(d), nil
	})
}

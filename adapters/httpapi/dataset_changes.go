package httpapi

import (
	"cmp"
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/app/releases"
	"github.com/pinsight/pinsight/domain/postal"
)

// changesInput selects the changes after a release.
type changesInput struct {
	Since string `query:"since" maxLength:"64" doc:"A release, by its publication date (YYYY-MM-DD) or its version (the dataset's version when it was served): the changes of the releases loaded after it. Absent: every change since the first release (the embedded snapshot). A name no release has is 422." example:"2025-10-03"`
	wire.PageParams
}

// releaseData is one release of the directory.
type releaseData struct {
	Release   string    `json:"release" doc:"The release's name: its publication date when known, else its version." example:"2025-10-03"`
	Version   string    `json:"version" doc:"Fingerprint of the release's content (the dataset's version while it is served)."`
	Published *string   `json:"published" doc:"Publication date of the directory file, YYYY-MM-DD; null when not known."`
	Source    string    `json:"source" enum:"embedded,files,unknown" doc:"Where the release was read from."`
	Offices   int       `json:"post_offices"`
	Pincodes  int       `json:"pincodes"`
	Changes   int       `json:"changes" doc:"Changes against the release before it (0 for the first)."`
	LoadedAt  time.Time `json:"loaded_at" doc:"When this server's storage first loaded it."`
}

// changeData is one change a release brought.
type changeData struct {
	Release    string             `json:"release" doc:"The release that brought the change."`
	Kind       string             `json:"kind" enum:"pincode_added,pincode_removed,office_added,office_removed,office_renamed,office_retyped,office_moved"`
	Pincode    string             `json:"pincode"`
	Office     *string            `json:"office" doc:"The office's name in the release (the one before for a removal); null for a pincode's own change."`
	OfficeType *string            `json:"office_type" doc:"HO, PO or BO, as office is; null for a pincode's own change."`
	Before     *string            `json:"before" doc:"office_renamed: the old name; office_retyped: the old type; null otherwise."`
	After      *string            `json:"after" doc:"office_renamed: the new name; office_retyped: the new type; null otherwise."`
	From       *wire.LocationData `json:"from" doc:"office_moved: the old location; null otherwise."`
	To         *wire.LocationData `json:"to" doc:"office_moved: the new location; null otherwise."`
	DistanceKm *float64           `json:"distance_km" doc:"office_moved: how far it moved (always more than 0.1 km); null otherwise."`
}

// changesData pages the changes after a release.
type changesData struct {
	Since    *releaseData  `json:"since" doc:"The release named by since; null without since."`
	Releases []releaseData `json:"releases" doc:"The releases loaded after it, oldest first."`
	Changes  []changeData  `json:"changes" doc:"By release, then by pincode; within a pincode its own change first, then removed, added, renamed, retyped and moved offices."`
	Meta     wire.Meta     `json:"meta"`
}

func releaseDataOf(r postal.Release) releaseData {
	return releaseData{Release: r.Name(), Version: r.Version, Published: optString(r.Published), Source: cmp.Or(r.Kind, postal.SourceUnknown),
		Offices: r.Offices, Pincodes: r.Pincodes, Changes: r.Changes, LoadedAt: r.LoadedAt}
}

func changeDataOf(c postal.ReleaseChange, names map[int64]string) changeData {
	out := changeData{Release: names[c.Release], Kind: string(c.Kind), Pincode: string(c.Pincode), Office: optString(c.Office),
		OfficeType: optString(c.OfficeType), Before: optString(c.Before), After: optString(c.After)}
	if c.Kind == postal.ChangeMoved && c.From != nil && c.To != nil {
		out.From = &wire.LocationData{Latitude: c.From.Latitude, Longitude: c.From.Longitude}
		out.To = &wire.LocationData{Latitude: c.To.Latitude, Longitude: c.To.Longitude}
		km := c.DistanceKm
		out.DistanceKm = &km
	}
	return out
}

func registerDatasetChanges(api huma.API, h *releases.History) {
	huma.Register(group(api), huma.Operation{
		OperationID: "dataset-changes", Method: http.MethodGet, Path: "/dataset/changes", Tags: []string{"Dataset"},
		Summary: "What changed in the directory's releases after a given one",
		Description: "Each new release of the India Post directory loaded (an import on PostgreSQL, serve --data-dir at start " +
			"on SQLite) is compared with the release it replaces: pincodes added and removed, offices added, removed, renamed, " +
			"retyped and moved (more than 100 m). The embedded snapshot is the first release. 422 when since names no release.",
	}, func(ctx context.Context, in *changesInput) (*reply[changesData], error) {
		list, err := h.Changes(ctx, in.Since, in.Paging())
		if err != nil {
			return nil, toHTTP(err)
		}
		names := map[int64]string{}
		out := changesData{Releases: make([]releaseData, 0, len(list.Releases)), Changes: make([]changeData, 0, len(list.Items)),
			Meta: metaOf(list.Page, list.Total)}
		if list.Since != nil {
			since := releaseDataOf(*list.Since)
			out.Since = &since
		}
		for _, r := range list.Releases {
			names[r.Seq] = r.Name()
			out.Releases = append(out.Releases, releaseDataOf(r))
		}
		for _, c := range list.Items {
			out.Changes = append(out.Changes, changeDataOf(c, names))
		}
		return ok(out), nil
	})
}

package sqlstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/report"
)

// screenshotRow is one image of a report (bytea on PostgreSQL, a BLOB on
// SQLite): one per report and kind, deleted with its report (ON DELETE
// CASCADE).
type screenshotRow struct {
	bun.BaseModel `bun:"table:report_screenshots,alias:s"`

	ReportID int64  `bun:"report_id,pk"`
	Kind     string `bun:"kind,pk"`
	Image    []byte `bun:"image"`
}

// pendingScreenshots takes the write instruction off r: the images to
// store (bounded) with r.Screenshots set to their kinds, or nil (keep the
// stored ones) with r.Screenshots set to kept, the kinds stored before.
func pendingScreenshots(r *report.Report, kept []report.ScreenshotKind) *report.Screenshots {
	next := r.NewScreenshots
	r.NewScreenshots = nil
	if next == nil {
		r.Screenshots = kept
		return nil
	}
	b := next.Bounded()
	r.Screenshots = b.Kinds()
	return &b
}

// putScreenshots replaces, in tx, the images of report id with shots (nil:
// unchanged).
func (s store) putScreenshots(ctx context.Context, tx bun.Tx, id int64, shots *report.Screenshots) error {
	if shots == nil {
		return nil
	}
	if _, err := tx.NewDelete().Model((*screenshotRow)(nil)).Where("report_id = ?", id).Exec(ctx); err != nil {
		return s.wrap("delete screenshots", err)
	}
	var rows []screenshotRow
	for _, k := range shots.Kinds() {
		rows = append(rows, screenshotRow{ReportID: id, Kind: string(k), Image: shots.Of(k)})
	}
	if len(rows) == 0 {
		return nil
	}
	_, err := tx.NewInsert().Model(&rows).Exec(ctx)
	return s.wrap("store screenshots", err)
}

// Screenshot implements ports.ReportStore: one row, through the report
// (its owner's), by the primary key.
func (s *ReportStore) Screenshot(ctx context.Context, userID, id int64, kind report.ScreenshotKind) ([]byte, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var row screenshotRow
	err := s.e.Read.NewSelect().Model(&row).Column("s.image").
		Join("JOIN reports AS r ON r.id = s.report_id").
		Where("s.report_id = ? AND s.kind = ? AND r.user_id = ?", id, string(kind), userID).Scan(ctx)
	if err != nil {
		return nil, s.missing(err, report.ErrNotFound, "get screenshot")
	}
	return row.Image, nil
}

package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports"
)

type releaseRow struct {
	bun.BaseModel `bun:"table:postal_releases,alias:pr"`

	Seq       int64  `bun:"seq,pk"`
	Version   string `bun:"version"`
	Published string `bun:"published"`
	Kind      string `bun:"kind"`
	Offices   int    `bun:"offices"`
	Pincodes  int    `bun:"pincodes"`
	Changes   int    `bun:"changes"`
	LoadedAt  stamp  `bun:"loaded_at"`
	Baseline  []byte `bun:"baseline,nullzero"`
}

func (r releaseRow) release() postal.Release {
	return postal.Release{Seq: r.Seq, Version: r.Version, Published: r.Published, Kind: r.Kind, Offices: r.Offices,
		Pincodes: r.Pincodes, Changes: r.Changes, LoadedAt: r.LoadedAt.utc()}
}

type releaseChangeRow struct {
	bun.BaseModel `bun:"table:postal_release_changes,alias:pc"`

	ReleaseSeq int64    `bun:"release_seq,pk"`
	Ord        int      `bun:"ord,pk"`
	Kind       string   `bun:"kind"`
	Pincode    string   `bun:"pincode"`
	Office     string   `bun:"office"`
	OfficeType string   `bun:"office_type"`
	Before     string   `bun:"before"`
	After      string   `bun:"after"`
	FromLat    *float64 `bun:"from_lat"`
	FromLon    *float64 `bun:"from_lon"`
	ToLat      *float64 `bun:"to_lat"`
	ToLon      *float64 `bun:"to_lon"`
	DistanceKm float64  `bun:"distance_km"`
}

func changeRowOf(seq int64, ord int, c postal.Change) releaseChangeRow {
	row := releaseChangeRow{ReleaseSeq: seq, Ord: ord, Kind: string(c.Kind), Pincode: string(c.Pincode), Office: c.Office,
		OfficeType: c.OfficeType, Before: c.Before, After: c.After, DistanceKm: c.DistanceKm}
	if c.From != nil {
		row.FromLat, row.FromLon = &c.From.Latitude, &c.From.Longitude
	}
	if c.To != nil {
		row.ToLat, row.ToLon = &c.To.Latitude, &c.To.Longitude
	}
	return row
}

func (r releaseChangeRow) change() postal.ReleaseChange {
	c := postal.Change{Kind: postal.ChangeKind(r.Kind), Pincode: postal.Pincode(r.Pincode), Office: r.Office,
		OfficeType: r.OfficeType, Before: r.Before, After: r.After, DistanceKm: r.DistanceKm}
	if r.FromLat != nil && r.FromLon != nil {
		c.From = &postal.Location{Latitude: *r.FromLat, Longitude: *r.FromLon}
	}
	if r.ToLat != nil && r.ToLon != nil {
		c.To = &postal.Location{Latitude: *r.ToLat, Longitude: *r.ToLon}
	}
	return postal.ReleaseChange{Release: r.ReleaseSeq, Change: c}
}

// changeBatch is how many changes one INSERT writes (13 columns: within
// within SQLite's limit of bound variables).
const changeBatch = 2000

// ReleaseStore keeps the history of the postal directory's releases.
type ReleaseStore struct{ store }

// NewReleaseStore returns the release store on e.
func NewReleaseStore(e Engine) *ReleaseStore { return &ReleaseStore{newStore(e)} }

// LatestRelease implements ports.ReleaseStore.
// It reads every office of the latest release: a bulk operation.
func (s *ReleaseStore) LatestRelease(ctx context.Context) (postal.Release, []postal.ReleaseOffice, bool, error) {
	ctx, cancel := s.bulk(ctx)
	defer cancel()
	var row releaseRow
	err := s.e.Read.NewSelect().Model(&row).OrderExpr("seq DESC").Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return postal.Release{}, nil, false, nil
	}
	if err != nil {
		return postal.Release{}, nil, false, s.wrap("latest release", err)
	}
	offices, err := postal.DecodeReleaseOffices(row.Baseline)
	if err != nil {
		return postal.Release{}, nil, false, errors.New(s.e.Name + ": stored release offices: " + err.Error())
	}
	return row.release(), offices, true, nil
}

// RecordRelease implements ports.ReleaseStore: the release's seq is one
// more than after's, so a concurrent recording after the same release
// fails on the primary key. It writes every office of the release: a bulk
// operation, whose statements PostgreSQL's serving statement_timeout does
// not bound either.
func (s *ReleaseStore) RecordRelease(ctx context.Context, after int64, r postal.Release, offices []postal.ReleaseOffice,
	changes []postal.Change) (postal.Release, error) {
	ctx, cancel := s.bulk(ctx)
	defer cancel()
	row := releaseRow{Seq: after + 1, Version: r.Version, Published: r.Published, Kind: r.Kind, Offices: r.Offices,
		Pincodes: r.Pincodes, Changes: len(changes), LoadedAt: stampOf(r.LoadedAt), Baseline: postal.EncodeReleaseOffices(offices)}
	if r.LoadedAt.IsZero() {
		row.LoadedAt = stampOf(time.Now())
	}
	err := s.inTx(ctx, "record release", func(ctx context.Context, tx bun.Tx) error {
		if s.dialect.pg {
			if _, err := tx.ExecContext(ctx, "SET LOCAL statement_timeout = 0"); err != nil {
				return s.wrap("lift the statement timeout", err)
			}
		}
		var latest int64
		if err := tx.NewSelect().Model((*releaseRow)(nil)).ColumnExpr("COALESCE(MAX(seq), 0)").Scan(ctx, &latest); err != nil {
			return s.wrap("latest release", err)
		}
		if latest != after {
			return ports.ErrReleaseTaken
		}
		if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
			if s.e.UniqueViolation(err) {
				return ports.ErrReleaseTaken
			}
			return s.wrap("insert release", err)
		}
		if _, err := tx.NewUpdate().Model((*releaseRow)(nil)).Set("baseline = NULL").Where("seq < ?", row.Seq).Exec(ctx); err != nil {
			return s.wrap("drop old release offices", err)
		}
		for from := 0; from < len(changes); from += changeBatch {
			batch := make([]releaseChangeRow, 0, min(changeBatch, len(changes)-from))
			for i := from; i < len(changes) && i < from+changeBatch; i++ {
				batch = append(batch, changeRowOf(row.Seq, i, changes[i]))
			}
			if _, err := tx.NewInsert().Model(&batch).Exec(ctx); err != nil {
				return s.wrap("insert release changes", err)
			}
		}
		return nil
	})
	if err != nil {
		return postal.Release{}, err
	}
	return row.release(), nil
}

// Releases implements ports.ReleaseStore.
func (s *ReleaseStore) Releases(ctx context.Context) ([]postal.Release, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var rows []releaseRow
	if err := s.e.Read.NewSelect().Model(&rows).ExcludeColumn("baseline").OrderExpr("seq").Scan(ctx); err != nil {
		return nil, s.wrap("list releases", err)
	}
	out := make([]postal.Release, len(rows))
	for i, r := range rows {
		out[i] = r.release()
	}
	return out, nil
}

// Changes implements ports.ReleaseStore.
func (s *ReleaseStore) Changes(ctx context.Context, since int64, page paging.Page) ([]postal.ReleaseChange, int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	page = page.WithDefaults()
	var rows []releaseChangeRow
	total, err := s.e.Read.NewSelect().Model(&rows).Where("release_seq > ?", since).OrderExpr("release_seq, ord").
		Offset(int64(page.Offset())).Limit(int64(max(page.PerPage, 0))).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, s.wrap("list release changes", err)
	}
	return changesOf(rows), int(total), nil
}

// PinChanges implements ports.ReleaseStore.
func (s *ReleaseStore) PinChanges(ctx context.Context) ([]postal.ReleaseChange, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var rows []releaseChangeRow
	err := s.e.Read.NewSelect().Model(&rows).Where("kind IN (?, ?)", string(postal.ChangePinAdded), string(postal.ChangePinRemoved)).
		OrderExpr("release_seq, ord").Scan(ctx)
	if err != nil {
		return nil, s.wrap("list pincode changes", err)
	}
	return changesOf(rows), nil
}

func changesOf(rows []releaseChangeRow) []postal.ReleaseChange {
	out := make([]postal.ReleaseChange, len(rows))
	for i, r := range rows {
		out[i] = r.change()
	}
	return out
}

var _ ports.ReleaseStore = (*ReleaseStore)(nil)

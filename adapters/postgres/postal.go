package postgres

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports"
)

// PostalStore serves the postal dataset imported by ImportDataset. It gives
// the same answers as the memory store: orders compare keys byte-wise
// (COLLATE "C") with ties by id, references resolve and searches rank
// through the domain's own functions, and distances are computed in Go.
// Reads that take several statements run in one read-only repeatable-read
// transaction, so a concurrent re-import is seen entirely or not at all.
type PostalStore struct {
	db *DB
}

// NewPostalStore returns a store on db (migrated).
func NewPostalStore(db *DB) *PostalStore { return &PostalStore{db: db} }

// read runs fn in a read-only snapshot of the database.
func (s *PostalStore) read(ctx context.Context, op string, fn func(tx bun.Tx) error) error {
	err := s.db.RunInTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}, func(ctx context.Context, tx bun.Tx) error {
		return fn(tx)
	})
	return postalErr(op, err)
}

// postalErr passes domain errors through and wraps storage failures.
func postalErr(op string, err error) error {
	var ve *postal.ValidationError
	var ae *postal.AmbiguousError
	switch {
	case err == nil, errors.Is(err, postal.ErrNoData), errors.Is(err, postal.ErrNotFound),
		errors.As(err, &ve), errors.As(err, &ae):
		return err
	}
	return wrap(op, err)
}

// noData returns postal.ErrNoData when nothing was imported: called when a
// query found nothing, to tell an empty answer from an empty store.
func noData(ctx context.Context, db bun.IDB) error {
	n, err := db.NewSelect().Table("postal_dataset").Count(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return postal.ErrNoData
	}
	return nil
}

// Info implements ports.PostalStore.
func (s *PostalStore) Info(ctx context.Context) (postal.Info, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var row datasetRow
	err := s.db.NewSelect().Model(&row).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return postal.Info{}, postal.ErrNoData
	}
	if err != nil {
		return postal.Info{}, wrap("postal info", err)
	}
	return row.toDomain(), nil
}

// OfficesByPincode implements ports.PostalStore.
func (s *PostalStore) OfficesByPincode(ctx context.Context, pin postal.Pincode) ([]postal.PostOffice, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var rows []officeRow
	err := s.read(ctx, "offices by pincode", func(tx bun.Tx) error {
		err := tx.NewSelect().Model(&rows).Column(officeColumns...).
			Where("pincode = ?", string(pin)).Order("office_key", "id").Scan(ctx)
		if err == nil && len(rows) == 0 {
			err = noData(ctx, tx)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return officesToDomain(rows), nil
}

// TerminatedPincode implements ports.PostalStore from the release history
// (read whole on each call: servers answer from their in-memory replica).
func (s *PostalStore) TerminatedPincode(ctx context.Context, pin postal.Pincode) (postal.Release, bool, error) {
	history := NewReleaseStore(s.db)
	releases, err := history.Releases(ctx)
	if err != nil {
		return postal.Release{}, false, err
	}
	pins, err := history.PinChanges(ctx)
	if err != nil {
		return postal.Release{}, false, err
	}
	r, found := postal.TerminatedPins(releases, pins)[pin]
	return r, found, nil
}

// Office implements ports.PostalStore.
func (s *PostalStore) Office(ctx context.Context, id int64) (postal.PostOffice, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var rows []officeRow
	err := s.read(ctx, "office by id", func(tx bun.Tx) error {
		err := tx.NewSelect().Model(&rows).Column(officeColumns...).Where("id = ?", id).Scan(ctx)
		if err == nil && len(rows) == 0 {
			if err = noData(ctx, tx); err == nil {
				err = &postal.NotFoundError{What: "post office " + strconv.FormatInt(id, 10)}
			}
		}
		return err
	})
	if err != nil {
		return postal.PostOffice{}, err
	}
	return rows[0].toDomain(), nil
}

// States implements ports.PostalStore.
// The few dozen states are read whole and postal.NameMatches filters them,
// so that every store matches alike.
func (s *PostalStore) States(ctx context.Context, q string) ([]postal.StateSummary, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var rows []stateRow
	err := s.read(ctx, "states", func(tx bun.Tx) error {
		err := tx.NewSelect().Model(&rows).Order("name", "id").Scan(ctx)
		if err == nil && len(rows) == 0 {
			err = noData(ctx, tx)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	key := postal.NameKey(q)
	out := make([]postal.StateSummary, 0, len(rows))
	for _, r := range rows {
		if postal.NameMatches(postal.NameKey(r.Name), key) {
			out = append(out, r.toDomain())
		}
	}
	return out, nil
}

// State implements ports.PostalStore: the candidates (the id, or the names
// starting with the reference's key) come from the database, and
// postal.ResolveState decides among them.
func (s *PostalStore) State(ctx context.Context, ref string) (postal.StateSummary, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var out postal.StateSummary
	err := s.read(ctx, "state", func(tx bun.Tx) error {
		var rows []stateRow
		q := tx.NewSelect().Model(&rows)
		if id, err := strconv.Atoi(strings.TrimSpace(ref)); err == nil {
			q.Where("id = ?", id)
		} else {
			key := postal.NameKey(ref)
			q.Where("name_key LIKE ?", likePrefix(key))
			if rest, found := strings.CutPrefix(key, "the "); found {
				// ResolveState retries without a leading "The": its candidates too.
				q.WhereOr("name_key LIKE ?", likePrefix(rest))
			}
		}
		if err := q.Scan(ctx); err != nil {
			return err
		}
		if len(rows) == 0 {
			if err := noData(ctx, tx); err != nil {
				return err
			}
		}
		cands := make([]postal.StateSummary, len(rows))
		for i, r := range rows {
			cands[i] = r.toDomain()
		}
		var err error
		out, err = postal.ResolveState(ref, cands)
		return err
	})
	return out, err
}

// districtQuery selects districts with their state's name.
func districtQuery(tx bun.Tx, rows *[]districtRow) *bun.SelectQuery {
	return tx.NewSelect().Model(rows).Column("id", "name", "alt_name", "state_id", "pincodes_count", "post_offices_count").
		ColumnExpr("coalesce(st.name, '') AS state_name").
		Join("LEFT JOIN postal_states AS st ON st.id = d.state_id")
}

// Districts implements ports.PostalStore.
// A state's districts (at most a hundred or so) are read whole and
// postal.DistrictMatches filters them, so that every store matches alike.
func (s *PostalStore) Districts(ctx context.Context, stateID int, q string) ([]postal.DistrictSummary, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var rows []districtRow
	err := s.read(ctx, "districts", func(tx bun.Tx) error {
		err := districtQuery(tx, &rows).Where("d.state_id = ?", stateID).
			Order("d.name", "d.id").Scan(ctx)
		if err == nil && len(rows) == 0 {
			err = noData(ctx, tx)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	key := postal.NameKey(q)
	all := districtsToDomain(rows)
	out := all[:0]
	for _, d := range all {
		if postal.DistrictMatches(d, key) {
			out = append(out, d)
		}
	}
	return out, nil
}

func districtsToDomain(rows []districtRow) []postal.DistrictSummary {
	out := make([]postal.DistrictSummary, len(rows))
	for i, r := range rows {
		out[i] = r.toDomain()
	}
	return out
}

// District implements ports.PostalStore, resolving like State.
func (s *PostalStore) District(ctx context.Context, ref string) (postal.DistrictSummary, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var out postal.DistrictSummary
	err := s.read(ctx, "district", func(tx bun.Tx) error {
		var rows []districtRow
		q := districtQuery(tx, &rows)
		if id, err := strconv.Atoi(strings.TrimSpace(ref)); err == nil {
			q.Where("d.id = ?", id)
		} else {
			key := likePrefix(postal.NameKey(ref))
			q.Where("(d.name_key LIKE ? OR (d.alt_name <> '' AND d.alt_key LIKE ?))", key, key)
		}
		if err := q.Scan(ctx); err != nil {
			return err
		}
		if len(rows) == 0 {
			if err := noData(ctx, tx); err != nil {
				return err
			}
		}
		var err error
		out, err = postal.ResolveDistrict(ref, districtsToDomain(rows))
		return err
	})
	return out, err
}

// DistrictOffices implements ports.PostalStore.
func (s *PostalStore) DistrictOffices(ctx context.Context, districtID int, page paging.Page) ([]postal.PostOffice, int, error) {
	return s.officesPage(ctx, "district offices", page, "district_id = ?", districtID)
}

// Villages implements ports.PostalStore.
func (s *PostalStore) Villages(ctx context.Context, pin postal.Pincode, page paging.Page) ([]postal.Village, int, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var rows []villageRow
	var total int
	err := s.read(ctx, "villages", func(tx bun.Tx) error {
		var err error
		rows, total, err = readPage[villageRow](ctx, tx, villageColumns, []string{"name_key", "code", "ord"}, page, "pincode = ?", string(pin))
		if err == nil && total == 0 {
			return noData(ctx, tx)
		}
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	return villagesToDomain(rows), total, nil
}

// likePrefix is a LIKE pattern matching strings that start with s.
func likePrefix(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s) + "%"
}

// Interface guard.
var _ ports.PostalStore = (*PostalStore)(nil)

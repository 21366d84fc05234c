package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/postal"
)

// DatasetChannel is the NOTIFY channel on which an import announces the
// new dataset generation (the payload is the generation in decimal).
const DatasetChannel = "pinsight_dataset"

// DatasetGeneration returns the current dataset generation: one cheap read,
// for replicas checking whether they serve the database's dataset.
func DatasetGeneration(ctx context.Context, db *DB) (int64, error) {
	ctx, cancel := db.bound(ctx)
	defer cancel()
	var g int64
	err := db.NewSelect().Table("postal_dataset_generation").Column("generation").Scan(ctx, &g)
	if err != nil {
		return 0, wrap("dataset generation", err)
	}
	return g, nil
}

// LoadDataset reads the whole imported dataset back, in one read-only
// repeatable-read transaction (a consistent snapshot, even while an import
// commits), with its generation: what an instance serves from memory. It
// returns postal.ErrNoData when nothing was imported. The dataset is the
// one imported, row for row: its Fingerprint is the version recorded at
// import, which LoadDataset checks. It runs within Config.DatasetLoadTimeout,
// not the statement timeout of serving operations: the transaction lifts
// the server's statement_timeout to that budget.
func LoadDataset(ctx context.Context, db *DB) (*postal.Dataset, int64, error) {
	ctx, cancel := context.WithTimeout(ctx, db.loadTimeout)
	defer cancel()
	var ds *postal.Dataset
	var gen int64
	err := db.RunInTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("SET LOCAL statement_timeout = %d", db.loadTimeout.Milliseconds())); err != nil {
			return err
		}
		var err error
		ds, gen, err = loadTx(ctx, tx)
		return err
	})
	if errors.Is(err, postal.ErrNoData) {
		return nil, gen, err
	}
	if err != nil {
		return nil, 0, wrap("load dataset", err)
	}
	return ds, gen, nil
}

func loadTx(ctx context.Context, tx bun.Tx) (*postal.Dataset, int64, error) {
	var gen int64
	if err := tx.NewSelect().Table("postal_dataset_generation").Column("generation").Scan(ctx, &gen); err != nil {
		return nil, 0, err
	}
	var meta datasetRow
	if err := tx.NewSelect().Model(&meta).Column("version", "has_lgd", "offices", "villages", "village_states", "report", "source").Limit(1).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, gen, postal.ErrNoData
		}
		return nil, 0, err
	}
	offices := make([]officeRow, 0, meta.Offices) // sized at once: no regrowth of a 165,000-row slice
	if err := tx.NewSelect().Model(&offices).Column(officeColumns...).Order("id").Scan(ctx); err != nil {
		return nil, 0, err
	}
	var states []postal.State
	if err := tx.NewSelect().Table("postal_states").Column("id", "name").Order("id").Scan(ctx, &states); err != nil {
		return nil, 0, err
	}
	var districts []postal.District
	if err := tx.NewSelect().Table("postal_districts").ColumnExpr("id, name, alt_name, state_id").Order("id").Scan(ctx, &districts); err != nil {
		return nil, 0, err
	}
	villages := make([]villageRow, 0, meta.Villages)
	if err := tx.NewSelect().Model(&villages).Column(villageColumns...).Order("ord").Scan(ctx); err != nil {
		return nil, 0, err
	}
	ds := &postal.Dataset{Offices: officesToDomain(offices), States: states, Districts: districts,
		Villages: villagesToDomain(villages), VillageStates: meta.VillageStates, HasLGD: meta.HasLGD,
		Report: meta.Report, Source: meta.Source}
	shareStrings(ds)
	if got := ds.Fingerprint(); got != meta.Version {
		return nil, 0, fmt.Errorf("the dataset read back has version %s, the import recorded %s", got, meta.Version)
	}
	return ds, gen, nil
}

// shareStrings makes the offices and villages share one copy of each
// repeated value (PIN code, office type, circle, region, division,
// district, state, subdistrict...), as the file loader's rows do: read from the database,
// each row holds copies of its own, which cost memory (about 70 MB on the
// full directory) and cache locality in every lookup.
func shareStrings(ds *postal.Dataset) {
	seen := map[string]string{}
	share := func(s *string) {
		if v, ok := seen[*s]; ok {
			*s = v
			return
		}
		seen[*s] = *s
	}
	for i := range ds.Offices {
		o := &ds.Offices[i]
		for _, f := range []*string{&o.OfficeType, &o.Delivery, &o.Circle, &o.Region, &o.Division, &o.District, &o.State} {
			share(f)
		}
		q, pin := string(o.Quality), string(o.Pincode)
		share(&q)
		share(&pin)
		o.Quality, o.Pincode = postal.LocationQuality(q), postal.Pincode(pin)
	}
	for i := range ds.Villages {
		v := &ds.Villages[i]
		for _, f := range []*string{&v.Subdistrict, &v.District, &v.State} {
			share(f)
		}
		pin := string(v.Pincode)
		share(&pin)
		v.Pincode = postal.Pincode(pin)
	}
}

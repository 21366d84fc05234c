package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pinsight/pinsight/domain/postal"
)

// ImportStats tells what ImportDataset wrote.
type ImportStats struct {
	Version      string        `json:"version"`
	Generation   int64         `json:"generation"` // the dataset generation the import made current
	Offices      int           `json:"offices"`
	OfficeWords  int           `json:"office_words"`
	States       int           `json:"states"`
	Districts    int           `json:"districts"`
	Villages     int           `json:"villages"`
	VillageWords int           `json:"village_words"`
	Duration     time.Duration `json:"duration_ns"`
}

// importLockKey serialises concurrent imports (pg_advisory_xact_lock).
const importLockKey = 0x70696e7369676874 // "pinsight"

// postalTables are emptied before an import, children first.
var postalTables = []string{"postal_village_words", "postal_villages", "post_office_words", "post_offices",
	"postal_districts", "postal_states", "postal_dataset"}

// ImportDataset replaces the postal dataset with ds in one transaction:
// the old rows are deleted (MVCC: readers keep seeing them until commit, and
// are never blocked), the new ones are streamed with COPY, the counts are
// computed, the dataset generation is bumped and NOTIFY DatasetChannel
// announces it, and the commit makes the whole new dataset visible (and
// the notification sent) at once. Importing the same dataset again gives
// the same rows (idempotent) in a new generation.
func ImportDataset(ctx context.Context, db *DB, ds *postal.Dataset) (ImportStats, error) {
	return importDataset(ctx, db, ds, false, nil)
}

// ImportDatasetProgress is ImportDataset telling progress, when not nil,
// the rows copied so far out of all the rows to copy (offices, villages,
// their search words, states and districts), every 1,024 rows and at the
// end of each table.
func ImportDatasetProgress(ctx context.Context, db *DB, ds *postal.Dataset, progress func(copied, total int)) (ImportStats, error) {
	return importDataset(ctx, db, ds, false, progress)
}

// ImportDatasetIfEmpty imports ds like ImportDataset unless the database
// holds a dataset already, decided under the import lock (so a concurrent
// import, or another instance bootstrapping, is never overwritten);
// imported is false when it did nothing.
func ImportDatasetIfEmpty(ctx context.Context, db *DB, ds *postal.Dataset) (st ImportStats, imported bool, err error) {
	st, err = importDataset(ctx, db, ds, true, nil)
	if errors.Is(err, errDatasetPresent) {
		return ImportStats{}, false, nil
	}
	return st, err == nil, err
}

// errDatasetPresent ends an import-if-empty that found a dataset.
var errDatasetPresent = errors.New("postgres: a dataset is imported already")

func importDataset(ctx context.Context, db *DB, ds *postal.Dataset, ifEmpty bool, progress func(copied, total int)) (ImportStats, error) {
	start := time.Now()
	if ds == nil || len(ds.Offices) == 0 {
		return ImportStats{}, errors.New("postgres: import: the dataset holds no offices")
	}
	// A connection of its own with no statement timeout: the load and
	// the planner statistics after it may outlast the serving timeout (a
	// loaded server), and an import committed is never answered as failed.
	conn, err := db.unboundedConn(ctx)
	if err != nil {
		return ImportStats{}, wrap("import", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var st ImportStats
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		var err error
		st, err = importTx(ctx, tx, ds, ifEmpty, progress)
		return err
	})
	if errors.Is(err, errDatasetPresent) {
		return ImportStats{}, err
	}
	if err != nil {
		return ImportStats{}, wrap("import", err)
	}
	// Fresh planner statistics, so that the indexes are used at once.
	if _, err := conn.Exec(ctx, "ANALYZE "+strings.Join(postalTables, ", ")); err != nil {
		return ImportStats{}, wrap("import: analyze", err)
	}
	st.Duration = time.Since(start)
	return st, nil
}

// importTx writes ds inside tx; with ifEmpty, only when no dataset is
// there (errDatasetPresent otherwise). progress, when not nil, is told the
// rows copied.
func importTx(ctx context.Context, tx pgx.Tx, ds *postal.Dataset, ifEmpty bool, progress func(copied, total int)) (ImportStats, error) {
	st := ImportStats{Version: ds.Fingerprint(), Offices: len(ds.Offices), States: len(ds.States),
		Districts: len(ds.Districts), Villages: len(ds.Villages)}
	for _, q := range []string{
		fmt.Sprintf("SELECT pg_advisory_xact_lock(%d)", importLockKey),
	} {
		if _, err := tx.Exec(ctx, q); err != nil {
			return st, err
		}
	}
	if ifEmpty {
		var present bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM postal_dataset)").Scan(&present); err != nil {
			return st, err
		}
		if present {
			return st, errDatasetPresent
		}
	}
	var prelude []string
	for _, t := range postalTables {
		prelude = append(prelude, "DELETE FROM "+t)
	}
	for _, q := range prelude {
		if _, err := tx.Exec(ctx, q); err != nil {
			return st, err
		}
	}
	copies := []struct {
		table string
		cols  []string
		rows  [][]any
		n     *int
	}{
		{"postal_states", []string{"id", "name", "name_key"}, stateRows(ds), nil},
		{"postal_districts", []string{"id", "name", "alt_name", "name_key", "alt_key", "state_id"}, districtRows(ds), nil},
		{"post_offices", officeCopyColumns, officeRows(ds), nil},
		{"post_office_words", []string{"word", "office_id"}, officeWordRows(ds), &st.OfficeWords},
		{"postal_villages", villageCopyColumns, villageRows(ds), nil},
		{"postal_village_words", []string{"word", "ord"}, villageWordRows(ds), &st.VillageWords},
	}
	total, copied := 0, 0
	for _, c := range copies {
		total += len(c.rows)
	}
	for _, c := range copies {
		var src pgx.CopyFromSource = pgx.CopyFromRows(c.rows)
		if progress != nil {
			src = &countedRows{CopyFromSource: src, done: func(n int) { progress(copied+n, total) }}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{c.table}, c.cols, src); err != nil {
			return st, fmt.Errorf("copy %s: %w", c.table, err)
		}
		copied += len(c.rows)
		if progress != nil {
			progress(copied, total)
		}
		if c.n != nil {
			*c.n = len(c.rows)
		}
	}
	for _, q := range countQueries {
		if _, err := tx.Exec(ctx, q); err != nil {
			return st, err
		}
	}
	if err := insertDatasetRow(ctx, tx, ds); err != nil {
		return st, err
	}
	var err error
	st.Generation, err = bumpGeneration(ctx, tx)
	return st, err
}

// bumpGeneration makes a new dataset generation and announces it on
// DatasetChannel; Postgres delivers the notification at commit, only if
// the transaction commits.
func bumpGeneration(ctx context.Context, tx pgx.Tx) (int64, error) {
	var g int64
	err := tx.QueryRow(ctx, `UPDATE postal_dataset_generation SET generation = generation + 1, changed_at = now()
		RETURNING generation`).Scan(&g)
	if err != nil {
		return 0, err
	}
	_, err = tx.Exec(ctx, "SELECT pg_notify($1, $2)", DatasetChannel, fmt.Sprint(g))
	return g, err
}

// countedRows tells done the rows handed to COPY, every 1,024.
type countedRows struct {
	pgx.CopyFromSource
	n    int
	done func(n int)
}

func (c *countedRows) Next() bool {
	if !c.CopyFromSource.Next() {
		return false
	}
	if c.n++; c.n%1024 == 0 {
		c.done(c.n)
	}
	return true
}

// countQueries fill the per-state and per-district counts from the rows.
var countQueries = []string{
	`UPDATE postal_states AS s SET pincodes_count = a.pins, post_offices_count = a.n
	 FROM (SELECT state_id, count(DISTINCT pincode) AS pins, count(*) AS n FROM post_offices
	       WHERE state_id <> 0 GROUP BY state_id) AS a WHERE a.state_id = s.id`,
	`UPDATE postal_states AS s SET districts_count = a.n
	 FROM (SELECT state_id, count(*) AS n FROM postal_districts GROUP BY state_id) AS a WHERE a.state_id = s.id`,
	`UPDATE postal_districts AS d SET pincodes_count = a.pins, post_offices_count = a.n
	 FROM (SELECT district_id, count(DISTINCT pincode) AS pins, count(*) AS n FROM post_offices
	       WHERE district_id <> 0 GROUP BY district_id) AS a WHERE a.district_id = d.id`,
}

// insertDatasetRow records what was imported, and where it was read from;
// its presence means "loaded".
func insertDatasetRow(ctx context.Context, tx pgx.Tx, ds *postal.Dataset) error {
	pins := map[postal.Pincode]bool{}
	for _, o := range ds.Offices {
		pins[o.Pincode] = true
	}
	states, err := json.Marshal(ds.VillageStates)
	if err != nil {
		return err
	}
	report, err := json.Marshal(ds.Report)
	if err != nil {
		return err
	}
	source, err := json.Marshal(ds.Source)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO postal_dataset (version, has_lgd, offices, pincodes, states, districts,
		villages, village_states, report, source, imported_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())`,
		ds.Fingerprint(), ds.HasLGD, len(ds.Offices), len(pins), len(ds.States), len(ds.Districts),
		len(ds.Villages), string(states), string(report), string(source))
	return err
}

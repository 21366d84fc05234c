package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/pinsight/pinsight/domain/postal"
)

// ImportStats tells what ImportDataset wrote.
type ImportStats struct {
	Version      string        `json:"version"`
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
// computed, and the commit makes the whole new dataset visible at once.
// Importing the same dataset again gives the same rows (idempotent).
func ImportDataset(ctx context.Context, db *DB, ds *postal.Dataset) (ImportStats, error) {
	return ImportDatasetProgress(ctx, db, ds, nil)
}

// ImportDatasetProgress is ImportDataset telling progress, when not nil,
// the rows copied so far out of all the rows to copy (offices, villages,
// their search words, states and districts), every 1,024 rows and at the
// end of each table.
func ImportDatasetProgress(ctx context.Context, db *DB, ds *postal.Dataset, progress func(copied, total int)) (ImportStats, error) {
	start := time.Now()
	if ds == nil || len(ds.Offices) == 0 {
		return ImportStats{}, errors.New("postgres: import: the dataset holds no offices")
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return ImportStats{}, wrap("import", err)
	}
	defer conn.Close()
	var st ImportStats
	err = conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("postgres: import needs the pgx driver, not %T", dc)
		}
		return pgx.BeginFunc(ctx, sc.Conn(), func(tx pgx.Tx) error {
			var err error
			st, err = importTx(ctx, tx, ds, progress)
			return err
		})
	})
	if err != nil {
		return ImportStats{}, wrap("import", err)
	}
	// Fresh planner statistics, so that the indexes are used at once.
	if _, err := conn.ExecContext(ctx, "ANALYZE "+strings.Join(postalTables, ", ")); err != nil {
		return ImportStats{}, wrap("import: analyze", err)
	}
	st.Duration = time.Since(start)
	return st, nil
}

// importTx writes ds inside tx.
func importTx(ctx context.Context, tx pgx.Tx, ds *postal.Dataset, progress func(copied, total int)) (ImportStats, error) {
	st := ImportStats{Version: ds.Fingerprint(), Offices: len(ds.Offices), States: len(ds.States),
		Districts: len(ds.Districts), Villages: len(ds.Villages)}
	prelude := []string{
		"SET LOCAL statement_timeout = 0", // a bulk load may outlast the serving timeout
		fmt.Sprintf("SELECT pg_advisory_xact_lock(%d)", importLockKey),
	}
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
	return st, insertDatasetRow(ctx, tx, ds)
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

package riverjobs

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivermigrate"
)

// MigrateTx applies River's pending migrations (its job, leader and queue
// tables) within tx and returns their names, each prefixed "river_". The
// caller serialises concurrent runs: SQLite's IMMEDIATE transaction, a
// transaction-scoped advisory lock on Postgres.
func MigrateTx(ctx context.Context, driver riverdriver.Driver[*sql.Tx], tx *sql.Tx) ([]string, error) {
	return migrateTx(ctx, driver, tx, rivermigrate.DirectionUp, nil)
}

// StepTx applies River's next pending migration (down: reverts the last
// applied one) within tx and returns its name, or none when there is
// nothing to do. On Postgres, where one migration uses an enum value the
// previous one adds (which one transaction refuses), callers migrate
// step by step, each step in its own transaction under their lock.
func StepTx(ctx context.Context, driver riverdriver.Driver[*sql.Tx], tx *sql.Tx, down bool) ([]string, error) {
	dir := rivermigrate.DirectionUp
	if down {
		dir = rivermigrate.DirectionDown
	}
	return migrateTx(ctx, driver, tx, dir, &rivermigrate.MigrateOpts{MaxSteps: 1})
}

// RollbackTx reverts every River migration within tx (River's tables go).
func RollbackTx(ctx context.Context, driver riverdriver.Driver[*sql.Tx], tx *sql.Tx) ([]string, error) {
	return migrateTx(ctx, driver, tx, rivermigrate.DirectionDown, &rivermigrate.MigrateOpts{TargetVersion: -1})
}

func migrateTx(ctx context.Context, driver riverdriver.Driver[*sql.Tx], tx *sql.Tx, dir rivermigrate.Direction, opts *rivermigrate.MigrateOpts) ([]string, error) {
	m, err := rivermigrate.New(driver, nil)
	if err != nil {
		return nil, fmt.Errorf("riverjobs: migrate: %w", err)
	}
	// MigrateTx is deprecated because some River versions cannot share one
	// transaction; StepTx runs one version per transaction, which avoids
	// exactly that, and keeps each step inside the caller's lock.
	//lint:ignore SA1019 one version per transaction (see above)
	res, err := m.MigrateTx(ctx, tx, dir, opts)
	if err != nil {
		return nil, fmt.Errorf("riverjobs: migrate %s: %w", dir, err)
	}
	return versionNames(res), nil
}

// versionNames names the versions res applied or reverted.
func versionNames(res *rivermigrate.MigrateResult) []string {
	names := make([]string, 0, len(res.Versions))
	for _, v := range res.Versions {
		names = append(names, fmt.Sprintf("river_%03d_%s", v.Version, v.Name))
	}
	return names
}

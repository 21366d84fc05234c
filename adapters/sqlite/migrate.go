package sqlite

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"github.com/pinsight/pinsight/adapters/sqlite/migrations"
	"github.com/pinsight/pinsight/adapters/sqlstore"
)

// errAppliedElsewhere stops a run whose next migration another process
// applied meanwhile; Migrate then reads the status again.
var errAppliedElsewhere = errors.New("applied by another process")

// Migrate applies every pending embedded migration and returns the names
// applied. A migration is recorded in its own IMMEDIATE transaction, so it
// is applied exactly once whatever happens: a crash leaves it complete and
// recorded or absent, and a second process migrating the same file at the
// same time waits for SQLite's write lock, then finds it recorded. That is
// why bun's lock table is not used here: a lock row left by a crashed
// process would fail every later start. River's migrations (its job queue)
// follow, all in one IMMEDIATE transaction; their names are not returned.
func Migrate(ctx context.Context, db *DB) ([]string, error) {
	m := newMigrator(db)
	if err := m.Init(ctx); err != nil {
		return nil, wrap("init migrations", err)
	}
	var names []string
	for range len(migrations.Migrations.Sorted()) + 1 { // each round applies or skips one at least
		group, err := m.Migrate(ctx)
		applied := group.Migrations
		if errors.Is(err, errAppliedElsewhere) {
			applied = applied[:len(applied)-1]
		}
		for _, mg := range applied {
			names = append(names, mg.Name)
		}
		if !errors.Is(err, errAppliedElsewhere) {
			if err != nil {
				return names, wrap("migrate", err)
			}
			if _, err := migrateRiver(ctx, db, false); err != nil {
				return names, wrap("migrate", err)
			}
			return names, nil
		}
	}
	return names, fmt.Errorf("sqlite: migrate: the status kept changing under another process")
}

// newMigrator is bun's migrator on the writer, recording each migration
// inside its transaction (the hooks) and again, as an upsert of the same
// row, once it committed (WithMarkAppliedOnSuccess).
func newMigrator(db *DB) *migrate.Migrator {
	return migrate.NewMigrator(db.write, migrations.Migrations,
		migrate.WithMarkAppliedOnSuccess(true), migrate.WithUpsert(true),
		migrate.BeforeMigration(skipIfRecorded), migrate.AfterMigration(record))
}

// migrationsTable is bun's default table of applied migrations.
const migrationsTable = "bun_migrations"

func skipIfRecorded(ctx context.Context, conn bun.IConn, mg *migrate.Migration) error {
	tx, ok := conn.(bun.Tx)
	if !ok {
		return fmt.Errorf("%s: SQLite migrations must be .tx.up.sql files", mg.Name)
	}
	n, err := tx.NewSelect().Table(migrationsTable).Where("name = ?", mg.Name).Count(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return errAppliedElsewhere
	}
	return nil
}

func record(ctx context.Context, conn bun.IConn, mg *migrate.Migration) error {
	_, err := conn.ExecContext(ctx, "INSERT INTO "+migrationsTable+" (name, group_id, migrated_at) VALUES (?, ?, ?)",
		mg.Name, mg.GroupID, time.Now().UTC().Format(time.DateTime))
	return err
}

// Rollback reverts the last group of migrations; once none of ours is
// left, it reverts River's and returns their names.
func Rollback(ctx context.Context, db *DB) ([]string, error) {
	group, err := migrate.NewMigrator(db.write, migrations.Migrations, migrate.WithMarkAppliedOnSuccess(true)).Rollback(ctx)
	if err != nil {
		return nil, wrap("rollback", err)
	}
	if len(group.Migrations) == 0 { // ours are all reverted: River's go last
		return migrateRiver(ctx, db, true)
	}
	var names []string
	for _, mg := range group.Migrations {
		names = append(names, mg.Name)
	}
	return names, nil
}

// MigrationStatus lists every known migration and whether it ran.
func MigrationStatus(ctx context.Context, db *DB) ([]string, error) {
	out, err := sqlstore.MigrationStatus(ctx, newMigrator(db))
	if err != nil {
		return nil, wrap("migration status", err)
	}
	return out, nil
}

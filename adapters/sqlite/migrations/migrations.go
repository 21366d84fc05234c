// Package migrations embeds the SQLite schema's migrations for bun/migrate.
// Files are <id>_<name>.tx.up.sql / .tx.down.sql: each runs in one
// transaction (which also records it, see sqlite.Migrate) and every up has
// its down. Tables are STRICT: a value of the wrong type is an error, not
// silently stored.
package migrations

import (
	"embed"

	"github.com/uptrace/bun/migrate"
)

//go:embed *.sql
var files embed.FS

// Migrations is the embedded set, discovered once.
var Migrations = func() *migrate.Migrations {
	m := migrate.NewMigrations()
	if err := m.Discover(files); err != nil {
		panic(err) // embedded files are fixed at build time; a test covers this
	}
	return m
}()

// Package sqlstore implements Pinsight's SQL-backed storage ports once, with
// bun, for every SQL engine: accounts and API keys, reports, projects,
// idempotency records, report history, webhooks and deliveries, reviews and
// likes, and the transactional side of the job queue.
//
// An engine package (adapters/sqlite, adapters/postgres) opens the
// connections, applies its own migrations, classifies its driver's errors
// and hands this package an Engine. Everything that differs between SQL
// dialects lives in dialect.go: how a time and a list of ids are written,
// row locks, substring search, byte-order collation, snapshot reads and
// notifications on commit.
package sqlstore

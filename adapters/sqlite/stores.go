package sqlite

import (
	"github.com/pinsight/pinsight/adapters/sqlstore"
)

// Engine describes the file to the shared SQL store: reads on the
// read-only pool, writes and transactions (IMMEDIATE) on the one writer.
func (db *DB) Engine() sqlstore.Engine {
	e := errs
	e.Read, e.Write, e.Timeout = db.read, db.write, db.timeout
	return e
}

// NewAccountStore returns the store of users and API keys in the file.
func NewAccountStore(db *DB) *sqlstore.AccountStore { return sqlstore.NewAccountStore(db.Engine()) }

// NewReportStore returns the store of reports, their history,
// Idempotency-Key records, webhooks and deliveries in the file.
func NewReportStore(db *DB) *sqlstore.ReportStore { return sqlstore.NewReportStore(db.Engine()) }

// NewReviewStore returns the store of reviews and likes in the file.
func NewReviewStore(db *DB) *sqlstore.ReviewStore { return sqlstore.NewReviewStore(db.Engine()) }

// NewCrawlStore returns the store of crawls, their frontiers, pages, links
// and issues in the file.
func NewCrawlStore(db *DB) *sqlstore.CrawlStore { return sqlstore.NewCrawlStore(db.Engine()) }

// NewReleaseStore returns the store of the postal directory's release
// history in the file.
func NewReleaseStore(db *DB) *sqlstore.ReleaseStore { return sqlstore.NewReleaseStore(db.Engine()) }

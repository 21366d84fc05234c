package postgres

import (
	"github.com/pinsight/pinsight/adapters/sqlstore"
	"github.com/pinsight/pinsight/domain/postal"
)

// Engine describes the database to the shared SQL store: one pool for
// reads and writes.
func (db *DB) Engine() sqlstore.Engine {
	e := errs
	e.Read, e.Write, e.Timeout = db.DB, db.DB, db.timeout
	return e
}

// NewAccountStore returns the store of users and API keys in PostgreSQL.
func NewAccountStore(db *DB) *sqlstore.AccountStore { return sqlstore.NewAccountStore(db.Engine()) }

// NewReportStore returns the store of reports, their history,
// Idempotency-Key records, webhooks and deliveries in PostgreSQL.
func NewReportStore(db *DB) *sqlstore.ReportStore { return sqlstore.NewReportStore(db.Engine()) }

// NewReviewStore returns the store of reviews and likes in PostgreSQL.
func NewReviewStore(db *DB) *sqlstore.ReviewStore { return sqlstore.NewReviewStore(db.Engine()) }

// KeysChannel is the NOTIFY channel on which a revoked key's ID is
// announced, so that every instance drops it from its cache of verified
// keys.
const KeysChannel = sqlstore.KeysChannel

// ReviewsChannel is the NOTIFY channel on which every review or like that
// changes an office's counts is announced, with the office's pincode.
const ReviewsChannel = sqlstore.ReviewsChannel

// ReviewsSubscription relays every instance's review and like writes to
// changed, with the office's pincode, on a Listener; after a
// (re)connection it calls changed with "" - every pincode - since
// announcements may have been missed. changed must not block: it re-reads
// the counts in the background (directory.CountsChanged), never dropping
// the ones it serves.
func ReviewsSubscription(changed func(pin postal.Pincode)) Subscription {
	return Subscription{
		Channel: ReviewsChannel,
		Notify:  func(payload string) { changed(postal.Pincode(payload)) },
		Missed:  func() { changed("") },
	}
}

// NewCrawlStore returns the store of crawls, their frontiers, pages, links
// and issues in the database.
func NewCrawlStore(db *DB) *sqlstore.CrawlStore { return sqlstore.NewCrawlStore(db.Engine()) }

// NewReleaseStore returns the store of the postal directory's release
// history in the database.
func NewReleaseStore(db *DB) *sqlstore.ReleaseStore { return sqlstore.NewReleaseStore(db.Engine()) }

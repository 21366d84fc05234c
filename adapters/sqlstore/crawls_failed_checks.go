package sqlstore

import (
	"context"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
)

// failedChecksChunk is how many pages a read of EachFailedCheck decodes
// the audits of at once (each about 10 KB of JSON once decoded).
const failedChecksChunk = 100

// failedRow is a recorded page failing some check, with its audit.
type failedRow struct {
	ID     int64   `bun:"id"`
	URL    string  `bun:"url"`
	Legacy string  `bun:"legacy"`  // crawl_urls.results: the audit of a page recorded before crawl_audits
	Audit  *string `bun:"results"` // crawl_audits.results; nil for such a page
}

// EachFailedCheck implements ports.CrawlStore: the pages whose failing
// list is not empty, failedChecksChunk at a time by id up to the crawl's
// last id when it began (a walk by id stops there, not at the table's
// end), their audits decoded outside the read.
func (s *CrawlStore) EachFailedCheck(ctx context.Context, id int64, fn func(ports.FailedCheck) error) error {
	if err := s.exists(ctx, id); err != nil {
		return err
	}
	var last int64
	err := s.chunk(ctx, "read failed checks", func(ctx context.Context) error {
		return s.e.Read.NewSelect().TableExpr("crawl_urls").ColumnExpr("COALESCE(MAX(id), 0)").Where("crawl_id = ?", id).Scan(ctx, &last)
	})
	if err != nil {
		return err
	}
	for after := int64(0); after < last; {
		var rows []failedRow
		err := s.chunk(ctx, "read failed checks", func(ctx context.Context) error {
			q := s.e.Read.NewSelect().ColumnExpr("u.id, u.url, u.results AS legacy, a.results").
				Join("LEFT JOIN crawl_audits AS a ON a.url_id = u.id").
				Where("u.crawl_id = ? AND u.recorded = TRUE AND u.id > ? AND u.id <= ? AND u.failing <> '[]'", id, after, last).
				OrderExpr("u.id").Limit(failedChecksChunk)
			if !s.dialect.pg {
				q = q.TableExpr("crawl_urls AS u NOT INDEXED") // by id (byID)
			} else {
				q = q.TableExpr("crawl_urls AS u")
			}
			return q.Scan(ctx, &rows)
		})
		if err != nil {
			return err
		}
		for _, r := range rows {
			text := r.Legacy
			if r.Audit != nil {
				text = *r.Audit
			}
			var res pagecheck.Results
			if err := decodeResults(text, &res); err != nil {
				return err
			}
			for _, c := range res.FailedChecks() {
				if err := fn(ports.FailedCheck{PageID: r.ID, URL: r.URL, Check: c}); err != nil {
					return err
				}
			}
		}
		if len(rows) < failedChecksChunk {
			return nil
		}
		after = rows[len(rows)-1].ID
	}
	return nil
}

package postgres

import (
	"context"
	"sort"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
)

// readPage counts the rows of R that where (with its args) selects and
// reads one page of them, ordered by order: the two queries of every paged
// postal list.
func readPage[R any](ctx context.Context, tx bun.Tx, columns, order []string, page paging.Page, where string, args ...any) ([]R, int, error) {
	count, err := tx.NewSelect().Model((*R)(nil)).Where(where, args...).Count(ctx)
	n := int(count)
	if err != nil || n == 0 {
		return nil, n, err
	}
	var rows []R
	from, to := page.Bounds(n)
	if from == to {
		return rows, n, nil
	}
	err = tx.NewSelect().Model(&rows).Column(columns...).Where(where, args...).Order(order...).
		Offset(int64(from)).Limit(int64(to - from)).Scan(ctx)
	return rows, n, err
}

// officesPage pages the offices where (with its args) selects by pincode,
// then name key, then id, with their total (postal.ErrNoData for none on
// an empty store): the district and cell lists.
func (s *PostalStore) officesPage(ctx context.Context, op string, page paging.Page, where string, args ...any) ([]postal.PostOffice, int, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var rows []officeRow
	var total int
	err := s.read(ctx, op, func(tx bun.Tx) error {
		var err error
		rows, total, err = readPage[officeRow](ctx, tx, officeColumns, []string{"pincode", "office_key", "id"}, page, where, args...)
		if err == nil && total == 0 {
			return noData(ctx, tx)
		}
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	return officesToDomain(rows), total, nil
}

// rankedPage keeps the candidates that match (match sets their rank),
// orders them by the domain's hit order and returns the page's candidates
// and the total.
func rankedPage[C, H any](cands []C, match func(*C) bool, hit func(*C) H, less func(a, b H) bool, page paging.Page) ([]C, int) {
	hits := cands[:0]
	for i := range cands {
		if match(&cands[i]) {
			hits = append(hits, cands[i])
		}
	}
	sort.Slice(hits, func(a, b int) bool { return less(hit(&hits[a]), hit(&hits[b])) })
	from, to := page.Bounds(len(hits))
	return hits[from:to], len(hits)
}

package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
	"github.com/pinsight/pinsight/ports"
)

// reviewRow is an office_reviews row.
type reviewRow struct {
	bun.BaseModel `bun:"table:office_reviews,alias:rv"`

	OfficeKey string `bun:"office_key,pk"`
	UserID    int64  `bun:"user_id,pk"`
	Pincode   string `bun:"pincode"`
	Rating    int    `bun:"rating"`
	Title     string `bun:"title"`
	Body      string `bun:"body"`
	CreatedAt stamp  `bun:"created_at"`
	UpdatedAt stamp  `bun:"updated_at"`
}

func (row reviewRow) toDomain() (review.Review, error) {
	office, ok := review.ParseKey(row.OfficeKey)
	if !ok {
		return review.Review{}, errors.New("sqlite: stored office key " + row.OfficeKey + " does not parse")
	}
	return review.Review{Office: office, UserID: row.UserID, Rating: row.Rating, Title: row.Title, Text: row.Body,
		CreatedAt: row.CreatedAt.utc(), UpdatedAt: row.UpdatedAt.utc()}, nil
}

// ReviewStore keeps reviews and likes in the SQLite file.
type ReviewStore struct {
	db *DB
}

// NewReviewStore returns a store on db.
func NewReviewStore(db *DB) *ReviewStore { return &ReviewStore{db: db} }

// bumpVersions records a change to an office of pin within tx.
func bumpVersions(ctx context.Context, tx bun.Tx, pin postal.Pincode) error {
	_, err := tx.NewRaw("INSERT INTO review_versions (pincode, version) VALUES (?, 1), ('', 1) "+
		"ON CONFLICT (pincode) DO UPDATE SET version = version + 1", string(pin)).Exec(ctx)
	if err != nil {
		return wrap("bump counts version", err)
	}
	return nil
}

// PutReview implements ports.ReviewStore.
func (s *ReviewStore) PutReview(ctx context.Context, r review.Review) (review.Review, bool, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	row := reviewRow{OfficeKey: r.Office.Key(), UserID: r.UserID, Pincode: string(r.Office.Pincode), Rating: r.Rating,
		Title: r.Title, Body: r.Text, CreatedAt: stampOf(r.CreatedAt), UpdatedAt: stampOf(r.UpdatedAt)}
	var out review.Review
	created := false
	err := s.db.inTx(ctx, "put review", func(ctx context.Context, tx bun.Tx) error {
		var old reviewRow
		err := tx.NewSelect().Model(&old).Where("office_key = ? AND user_id = ?", row.OfficeKey, row.UserID).Scan(ctx)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			created = true
			if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
				return wrap("insert review", err)
			}
		case err != nil:
			return wrap("read review", err)
		default:
			row.CreatedAt = old.CreatedAt
			if _, err := tx.NewUpdate().Model(&row).Column("rating", "title", "body", "updated_at").WherePK().Exec(ctx); err != nil {
				return wrap("update review", err)
			}
		}
		if err := bumpVersions(ctx, tx, r.Office.Pincode); err != nil {
			return err
		}
		out, err = row.toDomain()
		return err
	})
	return out, created, err
}

// DeleteReview implements ports.ReviewStore.
func (s *ReviewStore) DeleteReview(ctx context.Context, userID int64, office review.Office) error {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	return s.db.inTx(ctx, "delete review", func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewDelete().Model((*reviewRow)(nil)).Where("office_key = ? AND user_id = ?", office.Key(), userID).Exec(ctx)
		if err != nil {
			return wrap("delete review", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return review.ErrNotFound
		}
		return bumpVersions(ctx, tx, office.Pincode)
	})
}

// Review implements ports.ReviewStore.
func (s *ReviewStore) Review(ctx context.Context, userID int64, office review.Office) (review.Review, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var row reviewRow
	err := s.db.read.NewSelect().Model(&row).Where("office_key = ? AND user_id = ?", office.Key(), userID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return review.Review{}, review.ErrNotFound
	}
	if err != nil {
		return review.Review{}, wrap("get review", err)
	}
	return row.toDomain()
}

// OfficeReviews implements ports.ReviewStore.
func (s *ReviewStore) OfficeReviews(ctx context.Context, office review.Office, q review.ListQuery) ([]review.Review, int, error) {
	return s.list(ctx, q, "office_key = ?", office.Key())
}

// UserReviews implements ports.ReviewStore.
func (s *ReviewStore) UserReviews(ctx context.Context, userID int64, q review.ListQuery) ([]review.Review, int, error) {
	return s.list(ctx, q, "user_id = ?", userID)
}

// list pages the reviews matching where in q's order.
func (s *ReviewStore) list(ctx context.Context, q review.ListQuery, where string, arg any) ([]review.Review, int, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var rows []reviewRow
	dir := direction(q.Desc)
	sel := s.db.read.NewSelect().Model(&rows).Where(where, arg)
	if q.SortBy == review.SortRating {
		sel.OrderExpr("rating " + dir)
	} else {
		sel.OrderExpr("created_at " + dir) // fixed-width UTC text: text order is time order
	}
	sel.OrderExpr("user_id " + dir).OrderExpr("office_key COLLATE BINARY " + dir).Offset(int64(max(q.Offset, 0)))
	if q.Limit > 0 {
		sel.Limit(int64(q.Limit))
	}
	total, err := sel.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, wrap("list reviews", err)
	}
	out := make([]review.Review, len(rows))
	for i, row := range rows {
		if out[i], err = row.toDomain(); err != nil {
			return nil, 0, err
		}
	}
	return out, int(total), nil
}

// SetLike implements ports.ReviewStore.
func (s *ReviewStore) SetLike(ctx context.Context, userID int64, office review.Office, liked bool) (bool, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	changed := false
	err := s.db.inTx(ctx, "set like", func(ctx context.Context, tx bun.Tx) error {
		var res sql.Result
		var err error
		if liked {
			res, err = tx.NewRaw("INSERT INTO office_likes (office_key, pincode, user_id, created_at) VALUES (?, ?, ?, ?) "+
				"ON CONFLICT DO NOTHING", office.Key(), string(office.Pincode), userID, stampOf(time.Now())).Exec(ctx)
		} else {
			res, err = tx.NewRaw("DELETE FROM office_likes WHERE office_key = ? AND user_id = ?", office.Key(), userID).Exec(ctx)
		}
		if err != nil {
			return wrap("set like", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		changed = true
		return bumpVersions(ctx, tx, office.Pincode)
	})
	return changed, err
}

// Liked implements ports.ReviewStore.
func (s *ReviewStore) Liked(ctx context.Context, userID int64, office review.Office) (bool, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var n int
	err := s.db.read.NewRaw("SELECT count(*) FROM office_likes WHERE office_key = ? AND user_id = ?", office.Key(), userID).Scan(ctx, &n)
	if err != nil {
		return false, wrap("read like", err)
	}
	return n > 0, nil
}

// Counts implements ports.ReviewStore: two statements in one read-only
// transaction (a consistent snapshot), over the pincode indexes for one
// pincode.
func (s *ReviewStore) Counts(ctx context.Context, pin postal.Pincode) (review.Counts, error) {
	out := review.Counts{Feedback: map[review.Office]postal.Feedback{}, Versions: map[postal.Pincode]int64{}}
	if holdsNUL(string(pin)) {
		return out, nil
	}
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	where, versions, args := "", "", []any{}
	if pin != "" {
		where, versions, args = " WHERE pincode = ?", " WHERE pincode IN (?, '')", []any{string(pin)}
	}
	var rows []struct {
		OfficeKey string `bun:"office_key"`
		Reviews   int    `bun:"reviews"`
		RatingSum int    `bun:"rating_sum"`
		Likes     int    `bun:"likes"`
	}
	var vs []struct {
		Pincode string `bun:"pincode"`
		Version int64  `bun:"version"`
	}
	err := s.db.read.RunInTx(ctx, &sql.TxOptions{ReadOnly: true}, func(ctx context.Context, tx bun.Tx) error {
		err := tx.NewRaw("SELECT office_key, sum(reviews) AS reviews, sum(rating_sum) AS rating_sum, sum(likes) AS likes FROM ("+
			"SELECT office_key, count(*) AS reviews, sum(rating) AS rating_sum, 0 AS likes FROM office_reviews"+where+" GROUP BY office_key "+
			"UNION ALL SELECT office_key, 0, 0, count(*) FROM office_likes"+where+" GROUP BY office_key"+
			") AS f GROUP BY office_key", append(args, args...)...).Scan(ctx, &rows)
		if err != nil {
			return err
		}
		return tx.NewRaw("SELECT pincode, version FROM review_versions"+versions, args...).Scan(ctx, &vs)
	})
	if err != nil {
		return review.Counts{}, wrap("read review counts", err)
	}
	for _, r := range rows {
		office, ok := review.ParseKey(r.OfficeKey)
		if !ok {
			return review.Counts{}, errors.New("sqlite: stored office key " + r.OfficeKey + " does not parse")
		}
		out.Feedback[office] = postal.Feedback{Reviews: r.Reviews, Likes: r.Likes, RatingSum: r.RatingSum}
	}
	for _, v := range vs {
		out.Versions[postal.Pincode(v.Pincode)] = v.Version
	}
	return out, nil
}

// Interface guards.
var _ ports.ReviewStore = (*ReviewStore)(nil)

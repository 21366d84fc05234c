package sqlstore

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

// ReviewsChannel is the channel on which every review or like that changes
// an office's counts is announced on commit, with the office's pincode as
// payload, so other instances re-read that pincode's counts.
const ReviewsChannel = "pinsight_reviews"

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

func (s store) reviewOf(row reviewRow) (review.Review, error) {
	office, ok := review.ParseKey(row.OfficeKey)
	if !ok {
		return review.Review{}, errors.New(s.e.Name + ": stored office key " + row.OfficeKey + " does not parse")
	}
	return review.Review{Office: office, UserID: row.UserID, Rating: row.Rating, Title: row.Title, Text: row.Body,
		CreatedAt: row.CreatedAt.utc(), UpdatedAt: row.UpdatedAt.utc()}, nil
}

// ReviewStore keeps users' reviews and likes of post offices, and a counts
// version per pincode that every change bumps.
type ReviewStore struct{ store }

// NewReviewStore returns the review store on e.
func NewReviewStore(e Engine) *ReviewStore { return &ReviewStore{newStore(e)} }

// changed records, within tx, a change to the counts of an office of pin:
// it bumps pin's counts version and the version of everything (""), and
// announces pin on ReviewsChannel.
func (s *ReviewStore) changed(ctx context.Context, tx bun.Tx, pin postal.Pincode) error {
	_, err := tx.NewRaw("INSERT INTO review_versions AS v (pincode, version) VALUES (?, 1), ('', 1) "+
		"ON CONFLICT (pincode) DO UPDATE SET version = v.version + 1", string(pin)).Exec(ctx)
	if err != nil {
		return s.wrap("bump counts version", err)
	}
	return s.wrap("announce counts change", s.dialect.notify(ctx, tx, ReviewsChannel, string(pin)))
}

// PutReview implements ports.ReviewStore: an insert that does nothing on
// a conflict, then, when the review existed, an update that keeps its
// creation time.
func (s *ReviewStore) PutReview(ctx context.Context, r review.Review) (review.Review, bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	row := reviewRow{OfficeKey: r.Office.Key(), UserID: r.UserID, Pincode: string(r.Office.Pincode), Rating: r.Rating,
		Title: r.Title, Body: r.Text, CreatedAt: stampOf(r.CreatedAt), UpdatedAt: stampOf(r.UpdatedAt)}
	created := false
	err := s.inTx(ctx, "put review", func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewInsert().Model(&row).On("CONFLICT (office_key, user_id) DO NOTHING").Returning("NULL").Exec(ctx)
		if err != nil {
			return s.wrap("insert review", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			created = true
		} else if _, err := tx.NewUpdate().Model(&row).Column("rating", "title", "body", "updated_at").WherePK().
			Returning("created_at").Exec(ctx); err != nil {
			return s.wrap("update review", err)
		}
		return s.changed(ctx, tx, r.Office.Pincode)
	})
	if err != nil {
		return review.Review{}, false, err
	}
	out, err := s.reviewOf(row)
	return out, created, err
}

// DeleteReview implements ports.ReviewStore.
func (s *ReviewStore) DeleteReview(ctx context.Context, userID int64, office review.Office) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.inTx(ctx, "delete review", func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewDelete().Model((*reviewRow)(nil)).Where("office_key = ? AND user_id = ?", office.Key(), userID).Exec(ctx)
		if err != nil {
			return s.wrap("delete review", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return review.ErrNotFound
		}
		return s.changed(ctx, tx, office.Pincode)
	})
}

// Review implements ports.ReviewStore.
func (s *ReviewStore) Review(ctx context.Context, userID int64, office review.Office) (review.Review, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var row reviewRow
	if err := s.e.Read.NewSelect().Model(&row).Where("office_key = ? AND user_id = ?", office.Key(), userID).Scan(ctx); err != nil {
		return review.Review{}, s.missing(err, review.ErrNotFound, "get review")
	}
	return s.reviewOf(row)
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
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var rows []reviewRow
	dir := direction(q.Desc)
	sel := s.e.Read.NewSelect().Model(&rows).Where(where, arg)
	if q.SortBy == review.SortRating {
		sel.OrderExpr("rating " + dir)
	} else {
		sel.OrderExpr("created_at " + dir) // SQLite's fixed-width UTC text sorts as time
	}
	sel.OrderExpr("user_id " + dir).OrderExpr(s.dialect.binary("office_key") + " " + dir).Offset(int64(max(q.Offset, 0)))
	if q.Limit > 0 {
		sel.Limit(int64(q.Limit))
	}
	total, err := sel.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, s.wrap("list reviews", err)
	}
	out := make([]review.Review, len(rows))
	for i, row := range rows {
		if out[i], err = s.reviewOf(row); err != nil {
			return nil, 0, err
		}
	}
	return out, int(total), nil
}

// SetLike implements ports.ReviewStore.
func (s *ReviewStore) SetLike(ctx context.Context, userID int64, office review.Office, liked bool) (bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	changed := false
	err := s.inTx(ctx, "set like", func(ctx context.Context, tx bun.Tx) error {
		var res sql.Result
		var err error
		if liked {
			res, err = tx.NewRaw("INSERT INTO office_likes (office_key, pincode, user_id, created_at) VALUES (?, ?, ?, ?) "+
				"ON CONFLICT DO NOTHING", office.Key(), string(office.Pincode), userID, stampOf(time.Now())).Exec(ctx)
		} else {
			res, err = tx.NewRaw("DELETE FROM office_likes WHERE office_key = ? AND user_id = ?", office.Key(), userID).Exec(ctx)
		}
		if err != nil {
			return s.wrap("set like", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		changed = true
		return s.changed(ctx, tx, office.Pincode)
	})
	return changed, err
}

// Liked implements ports.ReviewStore.
func (s *ReviewStore) Liked(ctx context.Context, userID int64, office review.Office) (bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var n int
	err := s.e.Read.NewRaw("SELECT count(*) FROM office_likes WHERE office_key = ? AND user_id = ?", office.Key(), userID).Scan(ctx, &n)
	if err != nil {
		return false, s.wrap("read like", err)
	}
	return n > 0, nil
}

// Counts implements ports.ReviewCounts: two statements in one read-only
// transaction (a consistent snapshot), over the pincode indexes for one
// pincode.
func (s *ReviewStore) Counts(ctx context.Context, pin postal.Pincode) (review.Counts, error) {
	out := review.Counts{Feedback: map[review.Office]postal.Feedback{}, Versions: map[postal.Pincode]int64{}}
	if s.dialect.unstorable(string(pin)) {
		return out, nil
	}
	ctx, cancel := s.bound(ctx)
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
	err := s.e.Read.RunInTx(ctx, s.dialect.snapshot(), func(ctx context.Context, tx bun.Tx) error {
		err := tx.NewRaw("SELECT office_key, CAST(sum(reviews) AS INTEGER) AS reviews, CAST(sum(rating_sum) AS INTEGER) AS rating_sum, "+
			"CAST(sum(likes) AS INTEGER) AS likes FROM ("+
			"SELECT office_key, count(*) AS reviews, sum(rating) AS rating_sum, 0 AS likes FROM office_reviews"+where+" GROUP BY office_key "+
			"UNION ALL SELECT office_key, 0, 0, count(*) FROM office_likes"+where+" GROUP BY office_key"+
			") AS f GROUP BY office_key", append(args, args...)...).Scan(ctx, &rows)
		if err != nil {
			return err
		}
		return tx.NewRaw("SELECT pincode, version FROM review_versions"+versions, args...).Scan(ctx, &vs)
	})
	if err != nil {
		return review.Counts{}, s.wrap("read review counts", err)
	}
	for _, r := range rows {
		office, ok := review.ParseKey(r.OfficeKey)
		if !ok {
			return review.Counts{}, errors.New(s.e.Name + ": stored office key " + r.OfficeKey + " does not parse")
		}
		out.Feedback[office] = postal.Feedback{Reviews: r.Reviews, Likes: r.Likes, RatingSum: r.RatingSum}
	}
	for _, v := range vs {
		out.Versions[postal.Pincode(v.Pincode)] = v.Version
	}
	return out, nil
}

// Interface guards.
var (
	_ ports.ReviewStore  = (*ReviewStore)(nil)
	_ ports.ReviewCounts = (*ReviewStore)(nil)
)

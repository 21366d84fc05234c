package postgres

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

// ReviewsChannel is the channel of the NOTIFY sent, with the pincode as
// payload, by every review or like that changes an office's counts: other
// instances drop what they cached of that pincode.
const ReviewsChannel = "pinsight_reviews"

// reviewRow is an office_reviews row.
type reviewRow struct {
	bun.BaseModel `bun:"table:office_reviews,alias:rv"`

	OfficeKey string    `bun:"office_key,pk"`
	UserID    int64     `bun:"user_id,pk"`
	Pincode   string    `bun:"pincode"`
	Rating    int       `bun:"rating"`
	Title     string    `bun:"title"`
	Body      string    `bun:"body"`
	CreatedAt time.Time `bun:"created_at"`
	UpdatedAt time.Time `bun:"updated_at"`
	Inserted  bool      `bun:"inserted,scanonly"`
}

func (row reviewRow) toDomain() (review.Review, error) {
	office, ok := review.ParseKey(row.OfficeKey)
	if !ok {
		return review.Review{}, errors.New("postgres: stored office key " + row.OfficeKey + " does not parse")
	}
	return review.Review{Office: office, UserID: row.UserID, Rating: row.Rating, Title: row.Title, Text: row.Body,
		CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC()}, nil
}

// ReviewStore keeps reviews and likes in PostgreSQL.
type ReviewStore struct {
	db *DB
}

// NewReviewStore returns a store on db.
func NewReviewStore(db *DB) *ReviewStore { return &ReviewStore{db: db} }

// bumpVersions records a change to an office of pin within tx and
// announces it (NOTIFY is delivered on commit).
func bumpVersions(ctx context.Context, tx bun.Tx, pin postal.Pincode) error {
	_, err := tx.NewRaw("INSERT INTO review_versions AS v (pincode, version) VALUES (?, 1), ('', 1) "+
		"ON CONFLICT (pincode) DO UPDATE SET version = v.version + 1", string(pin)).Exec(ctx)
	if err != nil {
		return wrap("bump counts version", err)
	}
	if _, err := tx.NewRaw("SELECT pg_notify(?, ?)", ReviewsChannel, string(pin)).Exec(ctx); err != nil {
		return wrap("notify counts change", err)
	}
	return nil
}

// PutReview implements ports.ReviewStore: one upsert, whose xmax tells an
// insert from an update.
func (s *ReviewStore) PutReview(ctx context.Context, r review.Review) (review.Review, bool, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var row reviewRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		err := tx.NewRaw("INSERT INTO office_reviews AS rv (office_key, pincode, user_id, rating, title, body, created_at, updated_at) "+
			"VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (office_key, user_id) DO UPDATE SET "+
			"rating = EXCLUDED.rating, title = EXCLUDED.title, body = EXCLUDED.body, updated_at = EXCLUDED.updated_at "+
			"RETURNING rv.*, (xmax = 0) AS inserted",
			r.Office.Key(), string(r.Office.Pincode), r.UserID, r.Rating, r.Title, r.Text, r.CreatedAt, r.UpdatedAt).Scan(ctx, &row)
		if err != nil {
			return wrap("put review", err)
		}
		return bumpVersions(ctx, tx, r.Office.Pincode)
	})
	if err != nil {
		return review.Review{}, false, txErr("put review", err)
	}
	out, err := row.toDomain()
	return out, row.Inserted, err
}

// DeleteReview implements ports.ReviewStore.
func (s *ReviewStore) DeleteReview(ctx context.Context, userID int64, office review.Office) error {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewDelete().Model((*reviewRow)(nil)).Where("office_key = ? AND user_id = ?", office.Key(), userID).Exec(ctx)
		if err != nil {
			return wrap("delete review", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return review.ErrNotFound
		}
		return bumpVersions(ctx, tx, office.Pincode)
	})
	return txErr("delete review", err)
}

// Review implements ports.ReviewStore.
func (s *ReviewStore) Review(ctx context.Context, userID int64, office review.Office) (review.Review, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var row reviewRow
	err := s.db.NewSelect().Model(&row).Where("office_key = ? AND user_id = ?", office.Key(), userID).Scan(ctx)
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
	sel := s.db.NewSelect().Model(&rows).Where(where, arg)
	if q.SortBy == review.SortRating {
		sel.OrderExpr("rating " + dir)
	} else {
		sel.OrderExpr("created_at " + dir)
	}
	sel.OrderExpr("user_id " + dir).OrderExpr(`office_key COLLATE "C" ` + dir).Offset(int64(max(q.Offset, 0)))
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
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var res sql.Result
		var err error
		if liked {
			res, err = tx.NewRaw("INSERT INTO office_likes (office_key, pincode, user_id, created_at) VALUES (?, ?, ?, now()) "+
				"ON CONFLICT DO NOTHING", office.Key(), string(office.Pincode), userID).Exec(ctx)
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
	return changed, txErr("set like", err)
}

// Liked implements ports.ReviewStore.
func (s *ReviewStore) Liked(ctx context.Context, userID int64, office review.Office) (bool, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var n int
	err := s.db.NewRaw("SELECT count(*) FROM office_likes WHERE office_key = ? AND user_id = ?", office.Key(), userID).Scan(ctx, &n)
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
	err := s.db.RunInTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}, func(ctx context.Context, tx bun.Tx) error {
		err := tx.NewRaw("SELECT office_key, sum(reviews)::int AS reviews, sum(rating_sum)::int AS rating_sum, sum(likes)::int AS likes FROM ("+
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
			return review.Counts{}, errors.New("postgres: stored office key " + r.OfficeKey + " does not parse")
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

package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/reviews"
	"github.com/pinsight/pinsight/domain/review"
)

// officeIDInput names an office of the loaded release.
type officeIDInput struct {
	ID int64 `path:"id" doc:"The office's id in the loaded release (the id of its office records)."`
}

type reviewListInput struct {
	ID      int64  `path:"id" doc:"The office's id in the loaded release (the id of its office records)."`
	Page    int    `query:"page" default:"1" minimum:"1" doc:"Page number, from 1; a page beyond the last is an empty list."`
	PerPage int    `query:"per_page" default:"10" minimum:"1" maximum:"100" doc:"Reviews per page."`
	SortBy  string `query:"sort_by" enum:"created_at,rating" default:"created_at" doc:"created_at orders by the time of writing, rating by the stars given. Ties are broken by user id, then office, in the same direction."`
	Sort    string `query:"sort" enum:"asc,desc" default:"desc" doc:"Direction of sort_by: desc puts the newest or best first."`
}

type myReviewsInput struct {
	Page    int    `query:"page" default:"1" minimum:"1" doc:"Page number, from 1; a page beyond the last is an empty list."`
	PerPage int    `query:"per_page" default:"10" minimum:"1" maximum:"100" doc:"Reviews per page."`
	SortBy  string `query:"sort_by" enum:"created_at,rating" default:"created_at" doc:"created_at orders by the time of writing, rating by the stars given. Ties are broken by user id, then office, in the same direction."`
	Sort    string `query:"sort" enum:"asc,desc" default:"desc" doc:"Direction of sort_by: desc puts the newest or best first."`
}

type reviewPutInput struct {
	ID   int64 `path:"id" doc:"The office's id in the loaded release (the id of its office records)."`
	Body struct {
		Rating int    `json:"rating" doc:"1 to 5."`
		Title  string `json:"title,omitempty" doc:"At most 120 characters after trimming, one line. Refused (422): control characters, U+2028/U+2029, invisible formatting characters (bidirectional overrides, zero-width spaces, ...; the zero-width joiner and non-joiner are allowed) and more than 8 combining marks on one character."`
		Text   string `json:"text,omitempty" doc:"At most 2,000 characters after trimming; line breaks and tabs allowed. Refused (422): other control characters, U+2028/U+2029, invisible formatting characters (bidirectional overrides, zero-width spaces, ...; the zero-width joiner and non-joiner are allowed) and more than 8 combining marks on one character."`
	}
}

// reviewPutReply is 201 when the review was created, 200 when replaced.
type reviewPutReply struct {
	Status int `json:"-"`
	Body   envelope[reviewData]
}

// reviewsDoc is what every review operation shares.
const reviewsDoc = " Reviews and likes belong to the office's stable identity (pincode, normalised name, office type and " +
	"its rank among offices sharing those), not to the release's id: they carry over to new releases, and those of an " +
	"office a release drops are kept but not shown. Writes are limited per user (429 with Retry-After beyond)."

// registerOfficeByID adds GET /post-offices/{id}: the postal record by id,
// with its counts, cached like the other office answers.
func registerOfficeByID(api huma.API, p *directory.Directory) {
	g := group(api)
	g.UseMiddleware(cacheable(p, nil)) // ETag and 304 only: one entry per office would crowd out the PIN answers
	huma.Register(g, huma.Operation{
		Metadata: countsOf(countsOffice), OperationID: "get-post-office", Method: http.MethodGet, Path: "/post-offices/{id}",
		Tags: []string{"Post offices"}, Summary: "One post office by id",
		Description: "The office record of the loaded release whose id is id, with its live reviews_count, likes_count " +
			"and rating. 404 when the release has no such id (ids are per release).",
	}, func(ctx context.Context, in *officeIDInput) (*reply[officeData], error) {
		o, err := p.Office(ctx, in.ID)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(officeDataOf(o)), nil
	})
}

// registerReviews adds the review and like operations.
func registerReviews(api huma.API, rs *reviews.Reviews, acc *accounts.Accounts) {
	g := group(api)
	tags := []string{"Post offices"}
	huma.Register(g, huma.Operation{
		OperationID: "list-office-reviews", Method: http.MethodGet, Path: "/post-offices/{id}/reviews", Tags: tags,
		Summary:     "Reviews of a post office",
		Description: "Public. sort_by created_at (default) or rating; sort desc (default) or asc; ties by author." + reviewsDoc,
	}, func(ctx context.Context, in *reviewListInput) (*reply[reviewsData], error) {
		l, err := rs.OfficeReviews(ctx, in.ID, reviews.ListParams{SortBy: in.SortBy, Sort: in.Sort, Page: in.Page, PerPage: in.PerPage})
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(reviewsDataOf(l)), nil
	})
	op := huma.Operation{OperationID: "get-my-review", Method: http.MethodGet, Path: "/post-offices/{id}/review", Tags: tags,
		Summary: "The caller's review of a post office", Description: "404 when the caller has none." + reviewsDoc}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *officeIDInput) (*reply[reviewData], error) {
		e, err := rs.Mine(ctx, caller(ctx).User.ID, in.ID)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(reviewDataOf(e)), nil
	})
	op = huma.Operation{OperationID: "put-review", Method: http.MethodPut, Path: "/post-offices/{id}/review", Tags: tags,
		Summary: "Write the caller's review of a post office",
		Description: "Creates (201) or replaces (200) the caller's one review of the office. rating 1 to 5; title (at " +
			"most 120 characters) and text (at most 2,000) are trimmed, must hold no control characters (text may hold " +
			"line breaks and tabs) and are stored and returned as written: escape them when rendering HTML. 422 by " +
			"field otherwise." + reviewsDoc}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *reviewPutInput) (*reviewPutReply, error) {
		e, created, err := rs.Put(ctx, caller(ctx).User.ID, in.ID, review.Draft{Rating: in.Body.Rating, Title: in.Body.Title, Text: in.Body.Text})
		if err != nil {
			return nil, toHTTP(err)
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		}
		return &reviewPutReply{Status: status, Body: envelope[reviewData]{Success: true, Data: reviewDataOf(e)}}, nil
	})
	op = huma.Operation{OperationID: "delete-review", Method: http.MethodDelete, Path: "/post-offices/{id}/review", Tags: tags,
		Summary: "Delete the caller's review of a post office", Description: "404 when the caller has none (another " +
			"user's review is never touched)." + reviewsDoc}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *officeIDInput) (*reply[reviewDeletedData], error) {
		if err := rs.Delete(ctx, caller(ctx).User.ID, in.ID); err != nil {
			return nil, toHTTP(err)
		}
		return ok(reviewDeletedData{OfficeID: in.ID, Deleted: true}), nil
	})
	registerLikes(g, rs, acc)
	op = huma.Operation{OperationID: "list-my-reviews", Method: http.MethodGet, Path: "/account/reviews", Tags: tags,
		Summary: "The caller's reviews", Description: "Of every office, office_id null for an office the loaded " +
			"release does not have. sort_by created_at (default) or rating; sort desc (default) or asc." + reviewsDoc}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *myReviewsInput) (*reply[reviewsData], error) {
		l, err := rs.UserReviews(ctx, caller(ctx).User.ID, reviews.ListParams{SortBy: in.SortBy, Sort: in.Sort, Page: in.Page, PerPage: in.PerPage})
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(reviewsDataOf(l)), nil
	})
}

// registerLikes adds PUT and DELETE /post-offices/{id}/like.
func registerLikes(g huma.API, rs *reviews.Reviews, acc *accounts.Accounts) {
	tags := []string{"Post offices"}
	for _, like := range []bool{true, false} {
		op := huma.Operation{OperationID: "like-office", Method: http.MethodPut, Path: "/post-offices/{id}/like", Tags: tags,
			Summary: "Like a post office", Description: "Idempotent: liking twice is one like. Answers the office's counts." + reviewsDoc}
		if !like {
			op.OperationID, op.Method, op.Summary = "unlike-office", http.MethodDelete, "Stop liking a post office"
			op.Description = "Idempotent: unliking an office not liked changes nothing. Answers the office's counts." + reviewsDoc
		}
		protect(acc, &op)
		huma.Register(g, op, func(ctx context.Context, in *officeIDInput) (*reply[likeData], error) {
			o, err := rs.Like(ctx, caller(ctx).User.ID, in.ID, like)
			if err != nil {
				return nil, toHTTP(err)
			}
			return ok(likeData{OfficeID: o.ID, Liked: like, FeedbackData: feedbackData(o.Feedback)}), nil
		})
	}
}

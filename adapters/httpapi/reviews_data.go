package httpapi

import (
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/app/reviews"
	"github.com/pinsight/pinsight/domain/paging"
)

// reviewData is a review of a post office. Texts are returned exactly as
// stored (JSON-escaped); a client rendering them as HTML must escape them.
type reviewData struct {
	OfficeID  *int64    `json:"office_id" doc:"The office's id in the loaded release; null when the release has no office of the reviewed identity (the review is kept, not counted on any office)."`
	Pincode   string    `json:"pincode"`
	UserID    int64     `json:"user_id" doc:"The author."`
	Rating    int       `json:"rating" minimum:"1" maximum:"5"`
	Title     string    `json:"title" doc:"As written (trimmed); may be empty."`
	Text      string    `json:"text" doc:"As written (trimmed); may be empty."`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at" doc:"Last replaced."`
}

func reviewDataOf(e reviews.Entry) reviewData {
	d := reviewData{Pincode: string(e.Office.Pincode), UserID: e.UserID, Rating: e.Rating, Title: e.Title, Text: e.Text,
		CreatedAt: e.CreatedAt.UTC(), UpdatedAt: e.UpdatedAt.UTC()}
	if e.OfficeID != 0 {
		id := e.OfficeID
		d.OfficeID = &id
	}
	return d
}

// reviewsData pages reviews.
type reviewsData struct {
	Reviews []reviewData `json:"reviews"`
	Meta    wire.Meta    `json:"meta"`
}

func reviewsDataOf(l paging.List[reviews.Entry]) reviewsData {
	out := reviewsData{Reviews: make([]reviewData, len(l.Items)), Meta: metaOf(l.Page, l.Total)}
	for i, e := range l.Items {
		out.Reviews[i] = reviewDataOf(e)
	}
	return out
}

// likeData is the caller's like of an office with the office's counts.
type likeData struct {
	OfficeID int64 `json:"office_id"`
	Liked    bool  `json:"liked" doc:"Whether the caller likes the office now."`
	wire.FeedbackData
}

// reviewDeletedData answers the deletion of the caller's review.
type reviewDeletedData struct {
	OfficeID int64 `json:"office_id"`
	Deleted  bool  `json:"deleted"`
}

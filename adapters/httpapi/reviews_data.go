package httpapi

import (
	"time"

	"github.com/pinsight/pinsight/app/reviews"
	"github.com/pinsight/pinsight/domain/paging"
)

// ReviewData is a review of a post office. Texts are returned exactly as
// stored (JSON-escaped); a client rendering them as HTML must escape them.
type ReviewData struct {
	OfficeID  *int64    `json:"office_id" doc:"The office's id in the loaded release; null when the release has no office of the reviewed identity (the review is kept, not counted on any office)."`
	Pincode   string    `json:"pincode"`
	UserID    int64     `json:"user_id" doc:"The author."`
	Rating    int       `json:"rating" minimum:"1" maximum:"5"`
	Title     string    `json:"title" doc:"As written (trimmed); may be empty."`
	Text      string    `json:"text" doc:"As written (trimmed); may be empty."`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at" doc:"Last replaced."`
}

func reviewData(e reviews.Entry) ReviewData {
	d := ReviewData{Pincode: string(e.Office.Pincode), UserID: e.UserID, Rating: e.Rating, Title: e.Title, Text: e.Text,
		CreatedAt: e.CreatedAt.UTC(), UpdatedAt: e.UpdatedAt.UTC()}
	if e.OfficeID != 0 {
		id := e.OfficeID
		d.OfficeID = &id
	}
	return d
}

// ReviewsData pages reviews.
type ReviewsData struct {
	Reviews []ReviewData `json:"reviews"`
	Meta    Meta         `json:"meta"`
}

func reviewsData(l paging.List[reviews.Entry]) ReviewsData {
	out := ReviewsData{Reviews: make([]ReviewData, len(l.Items)), Meta: meta(l.Page, l.Total)}
	for i, e := range l.Items {
		out.Reviews[i] = reviewData(e)
	}
	return out
}

// LikeData is the caller's like of an office with the office's counts.
type LikeData struct {
	OfficeID int64 `json:"office_id"`
	Liked    bool  `json:"liked" doc:"Whether the caller likes the office now."`
	FeedbackData
}

// ReviewDeletedData answers the deletion of the caller's review.
type ReviewDeletedData struct {
	OfficeID int64 `json:"office_id"`
	Deleted  bool  `json:"deleted"`
}

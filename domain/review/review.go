package review

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/usertext"
)

// Limits of a review's fields, in characters (runes) after trimming.
const (
	MaxTitle = 120
	MaxText  = 2000
)

// ErrNotFound is returned for a review that does not exist, or is not the
// caller's: another user's review is never revealed nor touched.
var ErrNotFound = fault.New(fault.NotFound, "review: not found")

// Review is one user's review of one office. A user has at most one review
// of an office: writing again replaces it.
type Review struct {
	Office    Office
	UserID    int64
	Rating    int    // 1 to 5
	Title     string // trimmed, at most MaxTitle characters; may be empty
	Text      string // trimmed, at most MaxText characters; may be empty
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Draft is what a user writes: the rating and the texts as sent.
type Draft struct {
	Rating int
	Title  string
	Text   string
}

// Clean trims the texts and validates the draft: rating 1-5, title at most
// MaxTitle and text at most MaxText characters, both following the user
// text rule of package usertext (valid UTF-8; no control characters, line
// or paragraph separators, invisible formatting characters but the
// joiners, or more than usertext.MaxMarks combining marks on a character;
// the text may hold line breaks and tabs, the title is one line). It
// returns the trimmed draft or a *ValidationError by field. Texts are kept
// as given otherwise (no escaping: that is for whoever renders them).
func (d Draft) Clean() (Draft, error) {
	d.Title, d.Text = strings.TrimSpace(d.Title), strings.TrimSpace(d.Text)
	fields := map[string][]string{}
	if d.Rating < 1 || d.Rating > 5 {
		fields["rating"] = []string{"must be an integer from 1 to 5"}
	}
	if msgs := checkText(d.Title, MaxTitle, false); msgs != nil {
		fields["title"] = msgs
	}
	if msgs := checkText(d.Text, MaxText, true); msgs != nil {
		fields["text"] = msgs
	}
	if len(fields) > 0 {
		return Draft{}, &ValidationError{Fields: fields}
	}
	return d, nil
}

// checkText says what is wrong with a trimmed text: the user text rule
// (usertext; line breaks and tabs only when multiline) and the limit.
func checkText(s string, limit int, multiline bool) []string {
	var msgs []string
	check := usertext.CheckLine
	if multiline {
		check = usertext.CheckLines
	}
	if msg := check(s); msg != "" {
		msgs = append(msgs, msg)
	}
	if n := utf8.RuneCountInString(s); n > limit {
		msgs = append(msgs, "must be at most "+strconv.Itoa(limit)+" characters (got "+strconv.Itoa(n)+")")
	}
	return msgs
}

// ValidationError lists invalid fields of a review.
type ValidationError struct {
	Fields map[string][]string
}

func (e *ValidationError) Error() string { return "review: invalid input" }

// FieldErrors implements fault.FieldErrorer.
func (e *ValidationError) FieldErrors() map[string][]string { return e.Fields }

// Kind implements fault.Kinder.
func (e *ValidationError) Kind() fault.Kind { return fault.Invalid }

// Sort orders of a list of reviews.
const (
	SortCreated = "created_at"
	SortRating  = "rating"
)

// ListQuery selects a page of reviews: SortBy is SortCreated (default) or
// SortRating, Desc the direction (ties by user id, then office key, in
// the same direction).
type ListQuery struct {
	SortBy string
	Desc   bool
	Offset int
	Limit  int
}

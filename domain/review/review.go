package review

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pinsight/pinsight/domain/fault"
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
// MaxTitle and text at most MaxText characters, valid UTF-8 and no control
// characters (the text may hold line breaks and tabs). It returns the
// trimmed draft or a *ValidationError by field. Texts are kept as given
// otherwise (no escaping: that is for whoever renders them).
func (d Draft) Clean() (Draft, error) {
	d.Title, d.Text = strings.TrimSpace(d.Title), strings.TrimSpace(d.Text)
	fields := map[string][]string{}
	if d.Rating < 1 || d.Rating > 5 {
		fields["rating"] = []string{"must be an integer from 1 to 5"}
	}
	if msg := checkText(d.Title, MaxTitle, false); msg != "" {
		fields["title"] = []string{msg}
	}
	if msg := checkText(d.Text, MaxText, true); msg != "" {
		fields["text"] = []string{msg}
	}
	if len(fields) > 0 {
		return Draft{}, &ValidationError{Fields: fields}
	}
	return d, nil
}

// checkText says what is wrong with a trimmed text, "" when nothing.
func checkText(s string, limit int, multiline bool) string {
	if !utf8.ValidString(s) {
		return "must be valid UTF-8"
	}
	if n := utf8.RuneCountInString(s); n > limit {
		return "must be at most " + strconv.Itoa(limit) + " characters (got " + strconv.Itoa(n) + ")"
	}
	for _, r := range s {
		if multiline && (r == '\n' || r == '\t' || r == '\r') {
			continue
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\uFEFF' {
			return "must not contain control characters"
		}
	}
	return ""
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

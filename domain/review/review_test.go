package review_test

import (
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
)

func TestDraftClean(t *testing.T) {
	ok := []review.Draft{
		{Rating: 1},
		{Rating: 5, Title: strings.Repeat("é", review.MaxTitle), Text: strings.Repeat("न", review.MaxText)},
		{Rating: 3, Title: `<script>alert(1)</script>`, Text: "line\nline\ttab\r\n' OR 1=1 --"},
		{Rating: 4, Title: "अच्छा डाकघर \U0001F468\u200D\U0001F469\u200D\U0001F467", Text: "क्\u200Dष और क्\u200Cष\nന്\u200D"}, // joiners: emoji, Indic
	}
	for _, d := range ok {
		if _, err := d.Clean(); err != nil {
			t.Errorf("Clean(%+v) = %v, want accepted", d, err)
		}
	}
	got, err := review.Draft{Rating: 4, Title: "  padded \n", Text: "\t text  "}.Clean()
	if err != nil || got.Title != "padded" || got.Text != "text" {
		t.Errorf("Clean trims: %+v, %v", got, err)
	}
	bad := []struct {
		d     review.Draft
		field string
	}{
		{review.Draft{Rating: 0}, "rating"},
		{review.Draft{Rating: 6}, "rating"},
		{review.Draft{Rating: -1}, "rating"},
		{review.Draft{Rating: 3, Title: strings.Repeat("a", review.MaxTitle+1)}, "title"},
		{review.Draft{Rating: 3, Text: strings.Repeat("a", review.MaxText+1)}, "text"},
		{review.Draft{Rating: 3, Title: "a\nb"}, "title"},
		{review.Draft{Rating: 3, Text: "a\x00b"}, "text"},
		{review.Draft{Rating: 3, Text: "a\x1bb"}, "text"},
		{review.Draft{Rating: 3, Text: "a\u0085b"}, "text"},
		{review.Draft{Rating: 3, Text: "a\u2028b"}, "text"},
		{review.Draft{Rating: 3, Title: "\xff\xfe"}, "title"},
		{review.Draft{Rating: 3, Title: "abc\u202Edef"}, "title"},
		{review.Draft{Rating: 3, Text: "pin\u200Bsight"}, "text"},
		{review.Draft{Rating: 3, Text: "a" + strings.Repeat("\u0301", 2000)}, "text"},
	}
	for _, tt := range bad {
		_, err := tt.d.Clean()
		ve, isVE := err.(*review.ValidationError)
		if !isVE || len(ve.Fields[tt.field]) == 0 {
			t.Errorf("Clean(%+v) = %v, want an error on %s", tt.d, err, tt.field)
		}
	}
	_, err = review.Draft{Rating: 3, Text: "a" + strings.Repeat("\u0301", review.MaxText)}.Clean()
	if ve, _ := err.(*review.ValidationError); ve == nil || len(ve.Fields["text"]) != 2 ||
		!strings.Contains(ve.Fields["text"][0], "combining marks") || !strings.Contains(ve.Fields["text"][1], "at most 2000") {
		t.Errorf("2,000 stacked marks: %v; want both the marks and the length named", err)
	}
}

func TestIdentify(t *testing.T) {
	offices := []postal.PostOffice{
		{ID: 30, Pincode: "110001", Name: "Connaught Place S.O", OfficeType: "PO"},
		{ID: 10, Pincode: "110001", Name: "CONNAUGHT PLACE SO", OfficeType: "PO"},
		{ID: 20, Pincode: "110001", Name: "Connaught Place B.O", OfficeType: "BO"},
		{ID: 40, Pincode: "560001", Name: "Connaught Place S.O", OfficeType: "PO"},
		{ID: 10, Pincode: "110001", Name: "CONNAUGHT PLACE SO", OfficeType: "PO"}, // given twice
	}
	ids := review.Identify(offices)
	want := map[int64]review.Office{
		10: {Pincode: "110001", NameKey: "connaught place", OfficeType: "PO", Ordinal: 0},
		30: {Pincode: "110001", NameKey: "connaught place", OfficeType: "PO", Ordinal: 1},
		20: {Pincode: "110001", NameKey: "connaught place", OfficeType: "BO", Ordinal: 0},
		40: {Pincode: "560001", NameKey: "connaught place", OfficeType: "PO", Ordinal: 0},
	}
	if len(ids) != len(want) {
		t.Fatalf("Identify = %v", ids)
	}
	for id, w := range want {
		if ids[id] != w {
			t.Errorf("office %d = %+v, want %+v", id, ids[id], w)
		}
		back, ok := review.ParseKey(w.Key())
		if !ok || back != w {
			t.Errorf("ParseKey(%q) = %+v, %v", w.Key(), back, ok)
		}
	}
	for _, k := range []string{"", "a|b|c", "110001|x|PO|-1", "110001|x|PO|one", "1|2|3|4|5"} {
		if _, ok := review.ParseKey(k); ok {
			t.Errorf("ParseKey(%q) accepted", k)
		}
	}
}

func TestFeedbackRating(t *testing.T) {
	if _, ok := (postal.Feedback{Likes: 3}).Rating(); ok {
		t.Error("rating without reviews")
	}
	if r, ok := (postal.Feedback{Reviews: 2, RatingSum: 7}).Rating(); !ok || r != 3.5 {
		t.Errorf("Rating = %v, %v; want 3.5", r, ok)
	}
}

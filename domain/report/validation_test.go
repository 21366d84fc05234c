package report_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/report"
)

func TestProblems(t *testing.T) {
	p := report.Problems{}
	if p.Err() != nil {
		t.Fatal("no problems gave an error")
	}
	p.Add("a", "one")
	p.AddErr("x", report.Invalid("a", "two"))
	p.AddErr("x", nil)
	p.AddErr("b", fault.New(fault.Invalid, "site: bad thing"))
	var ve *report.ValidationError
	if err := p.Err(); !errors.As(err, &ve) || fault.KindOf(err) != fault.Invalid {
		t.Fatalf("Err() = %v, want a *ValidationError", err)
	}
	if got := fmt.Sprint(ve.Fields); got != "map[a:[one two] b:[bad thing]]" {
		t.Errorf("fields = %s", got)
	}
}

func TestSharePassword(t *testing.T) {
	pw, empty, weak := "correct horse battery", "", "short"
	tests := []struct {
		privacy report.Privacy
		sent    *string
		hasHash bool
		want    string
		bad     bool
	}{
		{report.Private, nil, false, "", false},
		{report.Private, &empty, false, "", false},
		{report.Public, &pw, false, "", true},
		{report.Protected, nil, false, "", true},
		{report.Protected, nil, true, "", false},
		{report.Protected, &weak, false, "", true},
		{report.Protected, &pw, false, pw, false},
	}
	for i, tt := range tests {
		got, err := report.SharePassword(tt.privacy, tt.sent, tt.hasHash)
		if got != tt.want || (err != nil) != tt.bad {
			t.Errorf("%d: SharePassword = %q, %v; want %q, error %v", i, got, err, tt.want, tt.bad)
		}
	}
}

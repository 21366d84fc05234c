package bulk

import (
	"context"
	"errors"
	"io"
	"strconv"

	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/postal"
)

// PincodeColumns are the CSV columns of a pincode file's answer: the input
// line, the pincode as sent, its status (found, not_found or invalid), its
// offices' count, and for a found pincode its principal office (head, else
// sub, else branch: directory.Principal) with that office's district and
// state, and a location (the principal office's, else the first located
// office's; empty when none is located); error says why a row is not
// found or invalid (for a terminated pincode, the last release that had
// it).
var PincodeColumns = []string{"line", "pincode", "status", "offices", "head_office", "district", "state", "latitude", "longitude", "error"}

// The pincode statuses of an answer row, as in directory.Batch.
const (
	notFoundMsg = "no post office has this pincode"
)

// pincodeRow is one row of a pincode file's answer.
type pincodeRow struct {
	Line       int                   `json:"line"`
	Pincode    string                `json:"pincode"`
	Status     directory.BatchStatus `json:"status"`
	Offices    int                   `json:"offices"`
	HeadOffice string                `json:"head_office,omitempty"`
	District   string                `json:"district,omitempty"`
	State      string                `json:"state,omitempty"`
	Latitude   *float64              `json:"latitude,omitempty"`
	Longitude  *float64              `json:"longitude,omitempty"`
	Error      string                `json:"error,omitempty"`
}

func (r *pincodeRow) fields(dst []string) []string {
	lat, lon := "", ""
	if r.Latitude != nil {
		lat, lon = strconv.FormatFloat(*r.Latitude, 'f', -1, 64), strconv.FormatFloat(*r.Longitude, 'f', -1, 64)
	}
	return append(dst, strconv.Itoa(r.Line), r.Pincode, string(r.Status), strconv.Itoa(r.Offices), r.HeadOffice,
		r.District, r.State, lat, lon, r.Error)
}

// Pincodes answers a file of pincodes (CSV: a pincode column; JSON Lines:
// objects with a pincode, a string or a number) from dir, writing one row
// per input row to out in the same format (see PincodeColumns; JSON Lines
// rows have the same keys, empty ones left out, then a summary line
// {"summary": Summary}). The Summary counts the rows answered; the error is
// a *FileError when the file was stopped, after its stop row was written.
func Pincodes(ctx context.Context, dir *directory.Directory, in io.Reader, out io.Writer, f Format, opt Options) (Summary, error) {
	return run(ctx, in, out, f, opt, spec{
		allowed: []int{fPincode},
		accept: func(has [nFields]bool) string {
			if !has[fPincode] {
				return "the header must name a pincode column"
			}
			return ""
		},
		columns: PincodeColumns,
		answer: func(ctx context.Context, rec *record, sum *Summary) (answerRow, error) {
			row := &pincodeRow{Line: rec.line, Pincode: rec.val[fPincode], Status: directory.BatchInvalid, Error: rec.err}
			switch {
			case row.Error != "":
			case !rec.has[fPincode]:
				row.Error = "pincode is required"
			case !validSyntax(row.Pincode):
				row.Error = postal.PincodeSyntax
			default:
				_, offices, err := dir.Lookup(ctx, row.Pincode)
				var nf *postal.NotFoundError
				var term *postal.TerminatedError
				switch {
				case errors.As(err, &nf):
					row.Status, row.Error = directory.BatchNotFound, notFoundMsg
				case errors.As(err, &term):
					row.Status, row.Error = directory.BatchNotFound, notFoundMsg+" (terminated: the last release that had it is "+term.LastRelease.Name()+")"
				case err != nil:
					return nil, err
				default:
					row.found(offices)
				}
			}
			switch row.Status {
			case directory.BatchFound:
				sum.Found++
				sum.Succeeded++
			case directory.BatchNotFound:
				sum.NotFound++
				sum.Failed++
			default:
				sum.Invalid++
				sum.Failed++
			}
			return row, nil
		},
	})
}

// found fills the row of a pincode with offices.
func (r *pincodeRow) found(offices []postal.PostOffice) {
	head := directory.Principal(offices)
	r.Status, r.Offices = directory.BatchFound, len(offices)
	r.HeadOffice, r.District, r.State = head.Name, head.District, head.State
	loc := head.Location
	for i := 0; loc == nil && i < len(offices); i++ {
		loc = offices[i].Location
	}
	if loc != nil {
		r.Latitude, r.Longitude = &loc.Latitude, &loc.Longitude
	}
}

// validSyntax reports whether a (trimmed) pincode cell is well-formed, by
// the rule of every pincode lookup (postal.ParsePincode): six digits no
// office has are not found, not invalid.
func validSyntax(s string) bool {
	_, err := postal.ParsePincode(s)
	return err == nil
}

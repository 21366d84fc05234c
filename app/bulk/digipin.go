package bulk

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"

	"github.com/pinsight/pinsight/digipin"
)

// DigipinColumns are the CSV columns of a DIGIPIN file's answer: the input
// line, the point and the code (what was sent, and what was computed from
// it: a point's code, written XXX-XXX-XXXX, or a code's cell centre,
// rounded to 6 decimals), and why a row could not be answered.
var DigipinColumns = []string{"line", "latitude", "longitude", "digipin", "error"}

// digipinRow is one row of a DIGIPIN file's answer. Coordinates are JSON
// numbers (left out when a sent one is not a number).
type digipinRow struct {
	Line      int     `json:"line"`
	Latitude  jsonNum `json:"latitude,omitempty"`
	Longitude jsonNum `json:"longitude,omitempty"`
	Digipin   string  `json:"digipin,omitempty"`
	Error     string  `json:"error,omitempty"`
	lat, lon  string  // the coordinates as written in the CSV answer
}

// jsonNum is the text of a JSON number, written as it is ("" is left out).
type jsonNum string

// MarshalJSON writes the number as it is.
func (n jsonNum) MarshalJSON() ([]byte, error) { return []byte(n), nil }

func (r *digipinRow) fields(dst []string) []string {
	return append(dst, strconv.Itoa(r.Line), r.lat, r.lon, r.Digipin, r.Error)
}

// Digipin answers a file of points or codes (CSV: latitude and longitude
// columns, or a digipin column; JSON Lines: objects with latitude and
// longitude, numbers or numeric strings, or with a digipin, line by line):
// a point is encoded and a code decoded, one row per input row written to
// out in the same format (see DigipinColumns; JSON Lines rows have the same
// keys, empty ones left out, then a summary line {"summary": Summary}).
// The Summary and error are as Pincodes's.
func Digipin(ctx context.Context, in io.Reader, out io.Writer, f Format, opt Options) (Summary, error) {
	return run(ctx, in, out, f, opt, spec{
		allowed: []int{fLatitude, fLongitude, fDigipin},
		accept: func(has [nFields]bool) string {
			point := has[fLatitude] || has[fLongitude]
			switch {
			case point && has[fDigipin]:
				return "the header names latitude, longitude and digipin: give either latitude,longitude (to encode) or digipin (to decode)"
			case point && !(has[fLatitude] && has[fLongitude]):
				return "the header must name both latitude and longitude"
			}
			return ""
		},
		columns: DigipinColumns,
		answer: func(_ context.Context, rec *record, sum *Summary) (answerRow, error) {
			row := digipinAnswer(rec)
			if row.Error != "" {
				sum.Failed++
			} else {
				sum.Succeeded++
			}
			return row, nil
		},
	})
}

// digipinAnswer encodes or decodes one row.
func digipinAnswer(rec *record) *digipinRow {
	row := &digipinRow{Line: rec.line, lat: rec.val[fLatitude], lon: rec.val[fLongitude], Digipin: rec.val[fDigipin], Error: rec.err}
	point := rec.has[fLatitude] || rec.has[fLongitude]
	switch {
	case row.Error != "":
	case point && rec.has[fDigipin]:
		row.Error = "give either latitude and longitude (to encode) or digipin (to decode), not both"
	case rec.has[fDigipin]:
		c, err := digipin.ParseCode(row.Digipin)
		if err != nil {
			row.Error = "digipin " + reason(err)
			break
		}
		lat, lon := digipin.DecodeCode(c)
		row.Digipin = c.String()
		row.lat, row.lon = strconv.FormatFloat(lat, 'f', 6, 64), strconv.FormatFloat(lon, 'f', 6, 64)
	case !rec.has[fLatitude] || !rec.has[fLongitude]:
		row.Error = "give latitude and longitude (to encode) or digipin (to decode)"
	default:
		lat, msg := coordinate("latitude", row.lat)
		lon, msg2 := coordinate("longitude", row.lon)
		if msg = cmp(msg, msg2); msg != "" {
			row.Error = msg
			break
		}
		c, err := digipin.EncodeCode(lat, lon)
		if err != nil {
			row.Error = reason(err)
			break
		}
		row.Digipin = c.String()
	}
	if number(row.lat) {
		row.Latitude = jsonNum(row.lat)
	}
	if number(row.lon) {
		row.Longitude = jsonNum(row.lon)
	}
	return row
}

// coordinate parses a coordinate written as a JSON number; msg says why it
// is not one.
func coordinate(name, s string) (float64, string) {
	if s == "" {
		return 0, name + " is required"
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !number(s) {
		return 0, name + " must be a number, e.g. 28.6139"
	}
	return v, ""
}

// number reports whether s is a JSON number.
func number(s string) bool {
	return s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') && json.Valid([]byte(s))
}

// cmp returns the first non-empty message.
func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// reason is the message of a DIGIPIN error without its package prefix.
func reason(err error) string {
	var re *digipin.RangeError
	if errors.As(err, &re) {
		return re.Field + " " + re.Reason()
	}
	var se *digipin.SyntaxError
	if errors.As(err, &se) {
		return se.Reason()
	}
	return err.Error()
}

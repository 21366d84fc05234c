// Package csvcell holds the one rule for the cells of every CSV file the
// service writes (crawl exports, bulk answers): a cell a spreadsheet would
// read as a formula is written as text. Such files carry text others
// control (a crawled page's title, an input cell echoed back), and a cell
// like `=cmd|' /C calc'!A0`, `+HYPERLINK(...)` or `@SUM(...)` would run in
// the spreadsheet of whoever opens the file (CSV or formula injection).
//
// The rule (OWASP's): a cell whose first character is '=', '+', '-', '@',
// a tab or a carriage return gets a single quote (') in front, which
// spreadsheets read as "text follows"; the rest of the cell is unchanged.
// A cell that is a decimal number (Number) is left alone, so "-12.5" (a
// negative coordinate) stays a number. Other cells, the empty one
// included, are written as they are.
package csvcell

import (
	"encoding/csv"
	"io"
)

// Safe returns s as a spreadsheet must read it, as text: s with a single
// quote in front when it starts with '=', '+', '-', '@', a tab or a
// carriage return and is not a decimal number (Number); s otherwise.
func Safe(s string) string {
	if s == "" || !trigger(s[0]) || Number(s) {
		return s
	}
	return "'" + s
}

// trigger reports whether a cell starting with c could be read as a
// formula.
func trigger(c byte) bool {
	switch c {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// Number reports whether s is a decimal number and nothing else: an
// optional sign, digits with an optional decimal point (at least one
// digit: "5", "-12.5", "+.5", "3."), and an optional exponent ("e" or
// "E", an optional sign, digits: "-1e5"). No spaces, no thousands
// separators, no hexadecimal, infinities or NaN.
func Number(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && isDigit(s[i]); i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for ; i < len(s) && isDigit(s[i]); i++ {
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Writer writes CSV records (RFC 4180, CRLF line ends) whose cells are
// made Safe; what it is given is never modified.
type Writer struct {
	w   *csv.Writer
	buf []string
}

// NewWriter returns a Writer writing to out, buffered until Flush.
func NewWriter(out io.Writer) *Writer {
	w := csv.NewWriter(out)
	w.UseCRLF = true
	return &Writer{w: w}
}

// Write writes one record, each cell made Safe.
func (w *Writer) Write(record []string) error {
	w.buf = w.buf[:0]
	for _, c := range record {
		w.buf = append(w.buf, Safe(c))
	}
	return w.w.Write(w.buf)
}

// Flush writes what is buffered to the underlying writer; Error tells
// whether that, or an earlier Write, failed.
func (w *Writer) Flush() { w.w.Flush() }

// Error returns the first error of a Write or Flush.
func (w *Writer) Error() error { return w.w.Error() }

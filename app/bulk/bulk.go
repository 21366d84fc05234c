// Package bulk answers files of postal and DIGIPIN queries row by row: a
// CSV file (a header row naming its columns) or JSON Lines in, the same
// format out, one result row per input row in input order. Neither side is
// held in memory: each row is read, answered and written before the next,
// so memory stays the same whatever the row count.
//
// A bad value makes a row-level error (the error column or field); the
// file goes on. A problem with the file itself (no header, unknown
// columns, a line that is not a JSON object, too many rows or bytes, a
// failing store or a Stop from Options.Every) ends it: the answer then
// ends with a stop row (CSV: line and an error starting "stopped: ";
// JSON Lines: the summary with complete false and the error), and the
// functions return a *FileError.
package bulk

import (
	"errors"
	"strconv"
)

// Format is the format of a file, read and written alike.
type Format int

// Formats.
const (
	CSV       Format = iota // RFC 4180, a header row first; answers with CRLF line ends
	JSONLines               // one JSON object per line; blank lines are skipped
)

// Defaults of Options.
const (
	DefaultMaxRows      = 100_000
	DefaultMaxBytes     = 16 << 20
	DefaultMaxLineBytes = 64 << 10
	// BlockRows is how many rows pass between flushes of the answer and
	// calls of Options.Every.
	BlockRows = 1000
)

// Options bound a file and let the caller follow it. A zero field takes
// its default.
type Options struct {
	MaxRows      int   // data rows (header and blank lines aside); more ends the file (TooLarge)
	MaxBytes     int64 // bytes of the whole file; more ends it (TooLarge)
	MaxLineBytes int   // bytes of one line; more ends the file (Malformed)
	// Every, when set, is called before the first row of each block of
	// BlockRows rows after the first block (rows 1001, 2001, ...) with the
	// number of rows answered so far; an error ends the file (Stopped).
	Every func(rows int) error
}

func (o Options) withDefaults() Options {
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultMaxRows
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	return o
}

// Summary counts the rows of a file. For pincodes, succeeded rows are
// found, and failed rows not found or invalid.
type Summary struct {
	Rows      int `json:"rows"`
	Succeeded int `json:"succeeded"`
	Failed    int `json:"failed"`
	// Found, NotFound and Invalid split the rows of a pincode file.
	Found    int `json:"found,omitempty"`
	NotFound int `json:"not_found,omitempty"`
	Invalid  int `json:"invalid,omitempty"`
	// Complete is false when the file was stopped; Error then says why.
	Complete bool       `json:"complete"`
	Error    *FileError `json:"error,omitempty"`
}

// Kind classifies what ended a file.
type Kind string

// Kinds of FileError.
const (
	Malformed Kind = "malformed" // not a file of the expected shape
	TooLarge  Kind = "too_large" // more rows, bytes or line bytes than allowed
	Stopped   Kind = "stopped"   // the store, the reader, the writer or Options.Every failed
)

// ErrRead is matched (errors.Is) by the FileError of a file whose reader
// failed (a connection cut or timed out: the cause is wrapped too).
var ErrRead = errors.New("bulk: reading the file")

// FileError is a problem with a file as a whole: the rows from Line on
// were not answered.
type FileError struct {
	Kind    Kind   `json:"code"`
	Line    int    `json:"line"` // the input line, from 1 (0: before the first)
	Message string `json:"message"`
	Err     error  `json:"-"` // the cause of a Stopped error
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return "line " + strconv.Itoa(e.Line) + ": " + e.Message
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *FileError) Unwrap() error { return e.Err }

// malformed returns a Malformed error at line.
func malformed(line int, msg string) *FileError {
	return &FileError{Kind: Malformed, Line: line, Message: msg}
}

// stopped wraps a cause as a Stopped error at line, keeping a FileError as
// it is.
func stopped(line int, err error) *FileError {
	var fe *FileError
	if errors.As(err, &fe) {
		return fe
	}
	return &FileError{Kind: Stopped, Line: line, Message: err.Error(), Err: err}
}

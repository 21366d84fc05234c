// Package indiapost reads the official dataset files (India Post's All India
// Pincode Directory and the LGD state, district and village exports), plain
// or gzipped, row by row; malformed rows are reported with their line and
// skipped. The readers take an io.Reader; Load reads a set of files from an
// fs.FS (such as the embedded snapshot, package snapshot) or from OS paths.
package indiapost

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxProblems bounds how many malformed rows are kept for the report.
const maxProblems = 50

// Problem is a row that could not be read.
type Problem struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Err  string `json:"error"`
}

// Summary tells what one file gave.
type Summary struct {
	File      string    `json:"file"`
	Role      string    `json:"role,omitempty"` // set by Load: RoleDirectory, RoleStates, ...
	Rows      int       `json:"rows"`
	Malformed int       `json:"malformed"`
	Problems  []Problem `json:"problems,omitempty"`
	SHA256    string    `json:"sha256"` // of the file's bytes as stored (compressed or not)
}

func (s *Summary) problem(line int, err string) {
	s.Malformed++
	if len(s.Problems) < maxProblems {
		s.Problems = append(s.Problems, Problem{File: s.File, Line: line, Err: err})
	}
}

// records streams the rows of a CSV with a header, handing each row to fn as
// a column-name lookup. Rows of the wrong width or that fail to parse are
// reported in the summary and skipped.
func records(r io.Reader, file string, required []string, fn func(line int, get func(string) string) error) (Summary, error) {
	s := Summary{File: file}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return s, fmt.Errorf("indiapost: %s: reading header: %w", file, err)
	}
	cols := map[string]int{}
	for i, h := range header {
		cols[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	for _, c := range required {
		if _, found := cols[c]; !found {
			return s, fmt.Errorf("indiapost: %s: missing column %q (have %s)", file, c, strings.Join(header, ","))
		}
	}
	width := len(header)
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return s, nil
		}
		line, _ := cr.FieldPos(0)
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			s.problem(pe.Line, pe.Err.Error())
			continue
		}
		if err != nil {
			return s, fmt.Errorf("indiapost: %s: line %d: %w", file, line, err)
		}
		if len(rec) != width {
			s.problem(line, fmt.Sprintf("%d fields, want %d", len(rec), width))
			continue
		}
		get := func(c string) string { return strings.TrimSpace(rec[cols[c]]) }
		if err := fn(line, get); err != nil {
			s.problem(line, err.Error())
			continue
		}
		s.Rows++
	}
}

// readCSV streams the CSV in r (gunzipped when it starts with the gzip
// magic bytes, whatever its name) through records, and records the SHA-256
// of r's bytes in the summary. name identifies r in messages.
func readCSV(r io.Reader, name string, required []string, fn func(line int, get func(string) string) error) (Summary, error) {
	sum := sha256.New()
	br := bufio.NewReaderSize(io.TeeReader(r, sum), 64<<10)
	var content io.Reader = br
	unzipped := func() {}
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return Summary{File: name}, fmt.Errorf("indiapost: %s: %w", name, err)
		}
		defer zr.Close()
		content, unzipped = unzipAhead(zr)
	}
	s, err := records(content, name, required, fn)
	unzipped()
	if err != nil {
		return s, err
	}
	// The CSV ended at the end of the content; hash whatever trails it.
	if _, err := io.Copy(io.Discard, br); err != nil {
		return s, fmt.Errorf("indiapost: %s: %w", name, err)
	}
	s.SHA256 = hex.EncodeToString(sum.Sum(nil))
	return s, nil
}

// unzipAhead decompresses zr in a goroutine of its own, a block ahead of
// the CSV parser reading the returned reader; done stops it (when the
// parser stopped early) and waits for it to finish with zr.
func unzipAhead(zr io.Reader) (r io.Reader, done func()) {
	pr, pw := io.Pipe()
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		buf := make([]byte, 256<<10)
		_, err := io.CopyBuffer(pw, struct{ io.Reader }{zr}, buf)
		pw.CloseWithError(err)
	}()
	return bufio.NewReaderSize(pr, 256<<10), func() {
		pr.Close()
		<-finished
	}
}

// Package indiapost reads the official dataset files (India Post's All India
// Pincode Directory and the LGD state, district and village exports), plain
// or gzipped, row by row; malformed rows are reported with their line and
// skipped.
package indiapost

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
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
	Rows      int       `json:"rows"`
	Malformed int       `json:"malformed"`
	Problems  []Problem `json:"problems,omitempty"`
}

func (s *Summary) problem(line int, err string) {
	s.Malformed++
	if len(s.Problems) < maxProblems {
		s.Problems = append(s.Problems, Problem{File: s.File, Line: line, Err: err})
	}
}

// open opens a file, transparently gunzipping it when it starts with the
// gzip magic bytes (whatever its name).
func open(path string) (io.Reader, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	br := bufio.NewReaderSize(f, 64<<10)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("indiapost: %s: %w", path, err)
		}
		return zr, func() error { zr.Close(); return f.Close() }, nil
	}
	return br, f.Close, nil
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

// readFile opens path and streams it through records.
func readFile(path string, required []string, fn func(line int, get func(string) string) error) (Summary, error) {
	r, closeFn, err := open(path)
	if err != nil {
		return Summary{File: path}, fmt.Errorf("indiapost: %w", err)
	}
	defer closeFn()
	return records(r, path, required, fn)
}

package bulk

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strconv"

	"github.com/pinsight/pinsight/domain/csvcell"
)

// flusher is an answer's destination that can send what it holds (an HTTP
// response, for one).
type flusher interface{ Flush() }

// writer writes the answer rows of a file; CSV cells through csvcell
// (a cell a spreadsheet would read as a formula is written as text).
type writer struct {
	out  io.Writer
	bw   *bufio.Writer
	csv  *csvcell.Writer
	json *json.Encoder
	buf  []string
}

func newWriter(out io.Writer, f Format) *writer {
	w := &writer{out: out}
	if f == CSV {
		w.csv = csvcell.NewWriter(out)
	} else {
		w.bw = bufio.NewWriterSize(out, 32<<10)
		w.json = json.NewEncoder(w.bw)
		w.json.SetEscapeHTML(false)
	}
	return w
}

// header writes the CSV header (JSON Lines has none).
func (w *writer) header(cols []string) error {
	if w.csv == nil {
		return nil
	}
	return w.csv.Write(cols)
}

// row writes one answer row.
func (w *writer) row(r answerRow) error {
	if w.csv != nil {
		w.buf = r.fields(w.buf[:0])
		return w.csv.Write(w.buf)
	}
	return w.json.Encode(r)
}

// stop ends the answer of a stopped file: the CSV stop row (its line,
// and the error column), or the JSON Lines summary.
func (w *writer) stop(fe *FileError, cols int, sum Summary) error {
	if w.csv == nil {
		return w.summary(sum)
	}
	w.buf = append(w.buf[:0], strconv.Itoa(fe.Line))
	for range cols - 2 {
		w.buf = append(w.buf, "")
	}
	return w.csv.Write(append(w.buf, "stopped: "+fe.Error()))
}

// summary writes the JSON Lines summary (CSV has none).
func (w *writer) summary(sum Summary) error {
	if w.json == nil {
		return nil
	}
	return w.json.Encode(struct {
		Summary Summary `json:"summary"`
	}{sum})
}

// flush writes what is buffered to out; send also flushes out, when it
// can (between blocks: at the end of a file its owner decides).
func (w *writer) flush(send bool) error {
	var err error
	if w.csv != nil {
		w.csv.Flush()
		err = w.csv.Error()
	} else {
		err = w.bw.Flush()
	}
	if f, ok := w.out.(flusher); ok && send && err == nil {
		f.Flush()
	}
	return err
}

// answerRow is one row of an answer: a JSON object, or CSV fields in the
// order of the file's columns.
type answerRow interface {
	fields(dst []string) []string
}

// spec describes a kind of file: the fields its rows may carry, the sets
// of them its header may name (accept returns why not), its answer's CSV
// columns, and how a row is answered.
type spec struct {
	allowed []int
	accept  func(has [nFields]bool) string
	columns []string
	answer  func(ctx context.Context, rec *record, sum *Summary) (answerRow, error)
}

// run answers the file in as s says, writing to out.
func run(ctx context.Context, in io.Reader, out io.Writer, f Format, opt Options, s spec) (Summary, error) {
	opt = opt.withDefaults()
	g := &guard{r: in, max: opt.MaxBytes, maxLine: opt.MaxLineBytes, line: 1}
	w := newWriter(out, f)
	var sum Summary
	line := 0
	end := func(fe *FileError) (Summary, error) {
		sum.Error = fe
		if err := w.stop(fe, len(s.columns), sum); err != nil {
			return sum, stopped(fe.Line, err)
		}
		if err := w.flush(false); err != nil {
			return sum, stopped(fe.Line, err)
		}
		return sum, fe
	}
	var src source
	if f == CSV {
		cs, err := newCSVSource(g, s.allowed, s.accept)
		if err := w.header(s.columns); err != nil {
			return sum, stopped(1, err)
		}
		if err != nil {
			return end(readErr(1, err))
		}
		src = cs
	} else {
		src = newJSONSource(g, s.allowed, opt.MaxLineBytes)
	}
	var rec record
	for {
		err := src.next(&rec)
		if err == io.EOF {
			break
		}
		if err != nil {
			return end(readErr(line+1, err))
		}
		line = rec.line
		if sum.Rows == opt.MaxRows {
			return end(&FileError{Kind: TooLarge, Line: line, Message: "more than " + strconv.Itoa(opt.MaxRows) + " rows"})
		}
		if sum.Rows > 0 && sum.Rows%BlockRows == 0 {
			if err := w.flush(true); err != nil {
				return sum, stopped(line, err)
			}
			if err := ctx.Err(); err != nil {
				return end(stopped(line, err))
			}
			if opt.Every != nil {
				if err := opt.Every(sum.Rows); err != nil {
					return end(stopped(line, err))
				}
			}
		}
		row, err := s.answer(ctx, &rec, &sum)
		if err != nil {
			return end(stopped(line, err))
		}
		sum.Rows++
		if err := w.row(row); err != nil {
			return sum, stopped(line, err)
		}
	}
	sum.Complete = true
	if err := w.summary(sum); err != nil {
		return sum, stopped(line, err)
	}
	if err := w.flush(false); err != nil {
		return sum, stopped(line, err)
	}
	return sum, nil
}

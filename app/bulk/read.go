package bulk

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The fields a row may carry.
const (
	fPincode = iota
	fLatitude
	fLongitude
	fDigipin
	nFields
)

// fieldNames are the column names (CSV) and keys (JSON Lines) of the fields.
var fieldNames = [nFields]string{"pincode", "latitude", "longitude", "digipin"}

// record is one input row: its line, the values of the fields it has, and
// a row-level problem found while reading it.
type record struct {
	line int
	val  [nFields]string
	has  [nFields]bool
	err  string
}

// source yields the rows of a file: io.EOF after the last, a *FileError
// when the file cannot go on.
type source interface {
	next(r *record) error
}

// guard bounds the bytes of a file and of each of its lines.
type guard struct {
	r       io.Reader
	n, max  int64
	line    int // the line being read, from 1
	sinceNL int
	maxLine int
	err     error
}

func (g *guard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.r.Read(p)
	g.n += int64(n)
	if g.n > g.max {
		g.err = &FileError{Kind: TooLarge, Line: g.line, Message: "the file is larger than " + strconv.FormatInt(g.max, 10) + " bytes"}
		return 0, g.err
	}
	for chunk := p[:n]; ; {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			g.sinceNL += len(chunk)
			break
		}
		if g.sinceNL+i > g.maxLine {
			g.sinceNL += i
			break
		}
		g.line++
		g.sinceNL = 0
		chunk = chunk[i+1:]
	}
	if g.sinceNL > g.maxLine {
		g.err = malformed(g.line, "line longer than "+strconv.Itoa(g.maxLine)+" bytes")
		return 0, g.err
	}
	return n, err
}

// readErr turns a failed read into the FileError that ends the file.
func readErr(line int, err error) *FileError {
	var fe *FileError
	if errors.As(err, &fe) {
		return fe
	}
	return &FileError{Kind: Stopped, Line: line, Message: "reading the file: " + err.Error(), Err: fmt.Errorf("%w: %w", ErrRead, err)}
}

// csvSource reads CSV rows by the columns of its header.
type csvSource struct {
	r    *csv.Reader
	cols []int // field of each column
}

// newCSVSource reads the header, which must name only fields of allowed
// and a set of them accept takes.
func newCSVSource(in io.Reader, allowed []int, accept func(has [nFields]bool) string) (*csvSource, error) {
	r := csv.NewReader(in)
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	head, err := r.Read()
	if err == io.EOF {
		return nil, malformed(1, "empty file: the first line must be a header naming the columns: "+names(allowed))
	}
	if err != nil {
		return nil, csvErr(err)
	}
	s := &csvSource{r: r, cols: make([]int, len(head))}
	var has [nFields]bool
	for i, h := range head {
		if i == 0 {
			h = strings.TrimPrefix(h, "\uFEFF") // a byte order mark, as spreadsheets write
		}
		f := fieldOf(strings.ToLower(strings.TrimSpace(h)), allowed)
		if f < 0 {
			return nil, malformed(1, "unknown column "+strconv.Quote(h)+": the first line must be a header naming the columns: "+names(allowed))
		}
		if has[f] {
			return nil, malformed(1, "column "+strconv.Quote(fieldNames[f])+" appears twice")
		}
		has[f] = true
		s.cols[i] = f
	}
	if msg := accept(has); msg != "" {
		return nil, malformed(1, msg)
	}
	return s, nil
}

func (s *csvSource) next(r *record) error {
	fields, err := s.r.Read()
	if err != nil {
		if err == io.EOF {
			return err
		}
		return csvErr(err)
	}
	*r = record{}
	r.line, _ = s.r.FieldPos(0)
	if len(fields) != len(s.cols) {
		r.err = "expected " + strconv.Itoa(len(s.cols)) + " fields, got " + strconv.Itoa(len(fields))
		return nil
	}
	for i, v := range fields {
		r.val[s.cols[i]], r.has[s.cols[i]] = strings.TrimSpace(v), true
	}
	return nil
}

// csvErr turns a CSV read error into the FileError that ends the file.
func csvErr(err error) *FileError {
	var pe *csv.ParseError
	if errors.As(err, &pe) && pe.Err != nil {
		var fe *FileError
		if errors.As(pe.Err, &fe) {
			return fe
		}
		if errors.Is(pe.Err, csv.ErrQuote) || errors.Is(pe.Err, csv.ErrBareQuote) {
			return malformed(pe.Line, "CSV syntax: "+pe.Err.Error())
		}
	}
	return readErr(0, err)
}

// jsonSource reads JSON Lines rows.
type jsonSource struct {
	r       *bufio.Reader
	line    int
	allowed [nFields]bool
}

func newJSONSource(in io.Reader, allowed []int, maxLine int) *jsonSource {
	s := &jsonSource{r: bufio.NewReaderSize(in, maxLine+2)}
	for _, f := range allowed {
		s.allowed[f] = true
	}
	return s
}

// jsonRow is the shape of an input line; values stay raw until checked.
type jsonRow struct {
	Pincode   json.RawMessage `json:"pincode"`
	Latitude  json.RawMessage `json:"latitude"`
	Longitude json.RawMessage `json:"longitude"`
	Digipin   json.RawMessage `json:"digipin"`
}

func (s *jsonSource) next(r *record) error {
	for {
		b, err := s.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			return malformed(s.line+1, "line longer than "+strconv.Itoa(s.r.Size())+" bytes")
		}
		if err != nil && err != io.EOF {
			return readErr(s.line+1, err)
		}
		if len(b) == 0 && err == io.EOF {
			return io.EOF
		}
		s.line++
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			if err == io.EOF {
				return io.EOF
			}
			continue
		}
		return s.parse(b, r)
	}
}

// parse reads one non-blank line into r.
func (s *jsonSource) parse(b []byte, r *record) error {
	*r = record{line: s.line}
	if b[0] != '{' {
		if !json.Valid(b) {
			return malformed(s.line, "not valid JSON")
		}
		return malformed(s.line, "not a JSON object")
	}
	var row jsonRow
	if err := json.Unmarshal(b, &row); err != nil {
		return malformed(s.line, "not valid JSON")
	}
	if key, ok := s.unknownKey(b); ok {
		r.err = "unknown field " + strconv.Quote(key) + ": expected " + names(s.allowedList())
		return nil
	}
	for f, raw := range [nFields]json.RawMessage{row.Pincode, row.Latitude, row.Longitude, row.Digipin} {
		if raw == nil || string(raw) == "null" {
			continue
		}
		if !s.allowed[f] {
			r.err = "unknown field " + strconv.Quote(fieldNames[f]) + ": expected " + names(s.allowedList())
			return nil
		}
		v, ok := scalar(raw)
		if !ok {
			r.err = fieldNames[f] + " must be a string or a number"
			return nil
		}
		r.val[f], r.has[f] = strings.TrimSpace(v), true
	}
	return nil
}

// unknownKey returns the first key of the valid JSON object b that names
// no field (as json.Unmarshal matches them: ignoring case).
func (s *jsonSource) unknownKey(b []byte) (string, bool) {
	depth, expectKey := 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			j := i + 1
			for ; j < len(b) && b[j] != '"'; j++ {
				if b[j] == '\\' {
					j++
				}
			}
			if depth == 1 && expectKey {
				if key := b[i+1 : j]; !known(key) {
					var name string
					if json.Unmarshal(b[i:j+1], &name) != nil {
						name = string(key)
					}
					return name, true
				}
				expectKey = false
			}
			i = j
		case '{', '[':
			depth++
			expectKey = depth == 1
		case '}', ']':
			depth--
		case ',':
			expectKey = depth == 1
		}
	}
	return "", false
}

// known reports whether a raw key names a field.
func known(key []byte) bool {
	for _, n := range fieldNames {
		if bytes.EqualFold(key, []byte(n)) {
			return true
		}
	}
	return false
}

func (s *jsonSource) allowedList() []int {
	var out []int
	for f, ok := range s.allowed {
		if ok {
			out = append(out, f)
		}
	}
	return out
}

// scalar is the text of a JSON string or number.
func scalar(raw json.RawMessage) (string, bool) {
	switch {
	case raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0:
		return string(raw[1 : len(raw)-1]), true
	case raw[0] == '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err == nil
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		return string(raw), true
	}
	return "", false
}

// fieldOf is the field named name among allowed, or -1.
func fieldOf(name string, allowed []int) int {
	for _, f := range allowed {
		if fieldNames[f] == name {
			return f
		}
	}
	return -1
}

// names lists the names of fields.
func names(fields []int) string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = fieldNames[f]
	}
	return strings.Join(out, ", ")
}

package bulk_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pinsight/pinsight/app/bulk"
	"github.com/pinsight/pinsight/app/postaldir"
)

// smallDir is a directory of three offices in two pincodes, one unlocated.
func smallDir(t testing.TB) *postaldir.Postal {
	t.Helper()
	csv := "circlename,regionname,divisionname,officename,pincode,officetype,delivery,district,statename,latitude,longitude\n" +
		"Bihar Circle,Patna HQ,Patna,Gandhi Maidan S.O,800001,PO,Delivery,PATNA,BIHAR,25.6190,85.1450\n" +
		"Bihar Circle,Patna HQ,Patna,Patna G.P.O.,800001,HO,Delivery,PATNA,BIHAR,25.6100,85.1400\n" +
		"Bihar Circle,Patna HQ,Patna,Danapur B.O,801503,BO,Delivery,PATNA,BIHAR,NA,NA\n"
	dir, err := postaldir.OpenFS(context.Background(), fstest.MapFS{"all_india_pincode_directory.csv": {Data: []byte(csv)}})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func pincodes(t *testing.T, f bulk.Format, in string, opt bulk.Options) (string, bulk.Summary, error) {
	t.Helper()
	var out strings.Builder
	sum, err := bulk.Pincodes(context.Background(), smallDir(t).Directory, strings.NewReader(in), &out, f, opt)
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), sum, err
}

func digipins(t *testing.T, f bulk.Format, in string, opt bulk.Options) (string, bulk.Summary, error) {
	t.Helper()
	var out strings.Builder
	sum, err := bulk.Digipin(context.Background(), strings.NewReader(in), &out, f, opt)
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), sum, err
}

func TestPincodesCSV(t *testing.T) {
	out, sum, err := pincodes(t, bulk.CSV, "\uFEFFPincode\r\n801503\n 800001 \n12345\n999999\n800001,extra\n000000\n", bulk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "line,pincode,status,offices,head_office,district,state,latitude,longitude,error\n" +
		"2,801503,found,1,Danapur B.O,Patna,Bihar,,,\n" +
		"3,800001,found,2,Patna G.P.O.,Patna,Bihar,25.61,85.14,\n" +
		"4,12345,invalid,0,,,,,,must be 6 digits\n" +
		"5,999999,not_found,0,,,,,,no post office has this pincode\n" +
		"6,,invalid,0,,,,,,\"expected 1 fields, got 2\"\n" +
		"7,000000,not_found,0,,,,,,no post office has this pincode\n" // six digits: not found, not invalid
	if out != want {
		t.Errorf("answer:\n%s\nwant:\n%s", out, want)
	}
	if sum != (bulk.Summary{Rows: 6, Succeeded: 2, Failed: 4, Found: 2, NotFound: 2, Invalid: 2, Complete: true}) {
		t.Errorf("summary %+v", sum)
	}
}

func TestPincodesJSONLines(t *testing.T) {
	in := `{"pincode": "800001"}` + "\n\n" + `{"pincode": 801503}` + "\n" + `{"pin": "800001"}` + "\n" + `{}` + "\n" + `{"pincode": true}`
	out, sum, err := pincodes(t, bulk.JSONLines, in, bulk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"line":1,"pincode":"800001","status":"found","offices":2,"head_office":"Patna G.P.O.","district":"Patna","state":"Bihar","latitude":25.61,"longitude":85.14}
{"line":3,"pincode":"801503","status":"found","offices":1,"head_office":"Danapur B.O","district":"Patna","state":"Bihar"}
{"line":4,"pincode":"","status":"invalid","offices":0,"error":"unknown field \"pin\": expected pincode"}
{"line":5,"pincode":"","status":"invalid","offices":0,"error":"pincode is required"}
{"line":6,"pincode":"","status":"invalid","offices":0,"error":"pincode must be a string or a number"}
{"summary":{"rows":5,"succeeded":2,"failed":3,"found":2,"invalid":3,"complete":true}}
`
	if out != want {
		t.Errorf("answer:\n%s\nwant:\n%s", out, want)
	}
	if sum.Rows != 5 || !sum.Complete {
		t.Errorf("summary %+v", sum)
	}
}

func TestDigipinCSVEncodeAndDecode(t *testing.T) {
	out, _, err := digipins(t, bulk.CSV, "longitude,latitude\n77.213033,28.622788\n77,91\nabc,28\n,28\n", bulk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "line,latitude,longitude,digipin,error\n" +
		"2,28.622788,77.213033,39J-49L-L8T4,\n" +
		"3,91,77,,latitude must be a finite number from 2.5 to 38.5\n" +
		"4,28,abc,,\"longitude must be a number, e.g. 28.6139\"\n" +
		"5,28,,,longitude is required\n"
	if out != want {
		t.Errorf("encode:\n%s\nwant:\n%s", out, want)
	}
	out, sum, err := digipins(t, bulk.CSV, "digipin\n39j 49l l8t4\n39J-49L-L8T\n", bulk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want = "line,latitude,longitude,digipin,error\n" +
		"2,28.622793,77.213049,39J-49L-L8T4,\n" +
		"3,,,39J-49L-L8T,\"digipin must be 10 characters excluding hyphens, got 9\"\n"
	if out != want {
		t.Errorf("decode:\n%s\nwant:\n%s", out, want)
	}
	if sum.Succeeded != 1 || sum.Failed != 1 {
		t.Errorf("summary %+v", sum)
	}
}

func TestDigipinJSONLinesMixed(t *testing.T) {
	in := `{"latitude": 28.622788, "longitude": "77.213033"}` + "\n" + `{"digipin": "39J-49L-L8T4"}` + "\n" +
		`{"digipin": "39J-49L-L8T4", "latitude": 1}` + "\n" + `{"latitude": 28}` + "\n" + `{"pincode": "110001"}` + "\n"
	out, sum, err := digipins(t, bulk.JSONLines, in, bulk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"line":1,"latitude":28.622788,"longitude":77.213033,"digipin":"39J-49L-L8T4"}
{"line":2,"latitude":28.622793,"longitude":77.213049,"digipin":"39J-49L-L8T4"}
{"line":3,"latitude":1,"digipin":"39J-49L-L8T4","error":"give either latitude and longitude (to encode) or digipin (to decode), not both"}
{"line":4,"latitude":28,"error":"give latitude and longitude (to encode) or digipin (to decode)"}
{"line":5,"error":"unknown field \"pincode\": expected latitude, longitude, digipin"}
{"summary":{"rows":5,"succeeded":2,"failed":3,"complete":true}}
`
	if out != want {
		t.Errorf("answer:\n%s\nwant:\n%s", out, want)
	}
	if sum.Rows != 5 {
		t.Errorf("summary %+v", sum)
	}
}

// fileError asserts err is a FileError of kind at line.
func fileError(t *testing.T, err error, kind bulk.Kind, line int, msg string) {
	t.Helper()
	var fe *bulk.FileError
	if !errors.As(err, &fe) || fe.Kind != kind || fe.Line != line || !strings.Contains(fe.Message, msg) {
		t.Errorf("error %#v (%v), want %s at line %d with %q", fe, err, kind, line, msg)
	}
}

func TestBadFiles(t *testing.T) {
	cases := []struct {
		name     string
		digipin  bool
		f        bulk.Format
		in       string
		opt      bulk.Options
		kind     bulk.Kind
		line     int
		msg      string
		lastLine string // the answer's last line
	}{
		{name: "empty", f: bulk.CSV, in: "", kind: bulk.Malformed, line: 1, msg: "empty file", lastLine: "1,,,,,,,,,stopped: line 1: empty file: the first line must be a header naming the columns: pincode"},
		{name: "no header", f: bulk.CSV, in: "800001\n800002\n", kind: bulk.Malformed, line: 1, msg: `unknown column "800001"`},
		{name: "unknown column", f: bulk.CSV, in: "pincode,name\n", kind: bulk.Malformed, line: 1, msg: `unknown column "name"`},
		{name: "duplicate column", f: bulk.CSV, in: "pincode,PINCODE\n", kind: bulk.Malformed, line: 1, msg: "appears twice"},
		{name: "half a point", digipin: true, f: bulk.CSV, in: "latitude\n28\n", kind: bulk.Malformed, line: 1, msg: "both latitude and longitude"},
		{name: "point and code", digipin: true, f: bulk.CSV, in: "latitude,longitude,digipin\n", kind: bulk.Malformed, line: 1, msg: "either"},
		{name: "bare quote", f: bulk.CSV, in: "pincode\n800001\n80\"0001\n", kind: bulk.Malformed, line: 3, msg: "CSV syntax",
			lastLine: `3,,,,,,,,,"stopped: line 3: CSV syntax: bare "" in non-quoted-field"`},
		{name: "not an object", f: bulk.JSONLines, in: `{"pincode":"800001"}` + "\n\n" + `["800001"]` + "\n", kind: bulk.Malformed, line: 3, msg: "not a JSON object",
			lastLine: `{"summary":{"rows":1,"succeeded":1,"failed":0,"found":1,"complete":false,"error":{"code":"malformed","line":3,"message":"not a JSON object"}}}`},
		{name: "invalid JSON", f: bulk.JSONLines, in: `{"pincode":"800001"` + "\n", kind: bulk.Malformed, line: 1, msg: "not valid JSON"},
		{name: "too many rows", f: bulk.CSV, in: "pincode\n800001\n800001\n800001\n", opt: bulk.Options{MaxRows: 2}, kind: bulk.TooLarge, line: 4, msg: "more than 2 rows",
			lastLine: "4,,,,,,,,,stopped: line 4: more than 2 rows"},
		{name: "too many bytes", f: bulk.JSONLines, in: strings.Repeat(`{"pincode":"800001"}`+"\n", 100), opt: bulk.Options{MaxBytes: 1000}, kind: bulk.TooLarge, msg: "larger than 1000 bytes"},
		{name: "long CSV line", f: bulk.CSV, in: "pincode\n" + strings.Repeat("8", 200) + "\n", opt: bulk.Options{MaxLineBytes: 100}, kind: bulk.Malformed, line: 2, msg: "longer than 100 bytes"},
		{name: "long JSON line", f: bulk.JSONLines, in: `{"pincode":"800001"}` + "\n" + strings.Repeat(" ", 200) + "{}\n", opt: bulk.Options{MaxLineBytes: 100}, kind: bulk.Malformed, line: 2, msg: "longer than 100 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out string
			var err error
			if c.digipin {
				out, _, err = digipins(t, c.f, c.in, c.opt)
			} else {
				out, _, err = pincodes(t, c.f, c.in, c.opt)
			}
			line := c.line
			if c.kind == bulk.TooLarge && line == 0 {
				var fe *bulk.FileError
				if errors.As(err, &fe) {
					line = fe.Line // where the reader was: ahead of the rows
				}
			}
			fileError(t, err, c.kind, line, c.msg)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			last := lines[len(lines)-1]
			if c.lastLine != "" && last != c.lastLine {
				t.Errorf("last line %q, want %q", last, c.lastLine)
			}
			if !strings.Contains(last, "stopped") && !strings.Contains(last, `"complete":false`) {
				t.Errorf("answer does not end with a stop: %q", last)
			}
		})
	}
}

// TestEveryStopsBetweenBlocks checks Every is called before each further
// block, and that its error stops the file after the rows answered.
func TestEveryStopsBetweenBlocks(t *testing.T) {
	in := "pincode\n" + strings.Repeat("800001\n", 2*bulk.BlockRows+5)
	var calls []int
	out, sum, err := pincodes(t, bulk.CSV, in, bulk.Options{Every: func(rows int) error {
		calls = append(calls, rows)
		if rows == 2*bulk.BlockRows {
			return errors.New("quota spent")
		}
		return nil
	}})
	if fmt.Sprint(calls) != fmt.Sprint([]int{bulk.BlockRows, 2 * bulk.BlockRows}) {
		t.Errorf("Every called with %v", calls)
	}
	fileError(t, err, bulk.Stopped, 2*bulk.BlockRows+2, "quota spent")
	if sum.Rows != 2*bulk.BlockRows || sum.Complete {
		t.Errorf("summary %+v", sum)
	}
	if !strings.HasSuffix(out, "\n2002,,,,,,,,,stopped: line 2002: quota spent\n") {
		t.Errorf("answer ends %q", out[len(out)-80:])
	}
}

// TestLargeFileStreams answers 100,000 rows in order, and writes answer
// rows before the input is complete.
func TestLargeFileStreams(t *testing.T) {
	const rows = bulk.DefaultMaxRows
	dir := smallDir(t)
	pr, pw := io.Pipe()
	ar, aw := io.Pipe()
	firstAnswered := make(chan struct{})
	go func() {
		defer pw.Close()
		for i := range rows {
			if i == rows/2 {
				<-firstAnswered // half the input waits for an answer row
			}
			fmt.Fprintf(pw, "{\"pincode\":\"%d\"}\n", 800001+i%2*1000)
		}
	}()
	done := make(chan error, 1)
	go func() {
		_, err := bulk.Pincodes(context.Background(), dir.Directory, pr, aw, bulk.JSONLines, bulk.Options{})
		aw.CloseWithError(err)
		done <- err
	}()
	sc := bufio.NewScanner(ar)
	n := 0
	for sc.Scan() {
		if n == 0 {
			close(firstAnswered)
		}
		var row struct {
			Line    int    `json:"line"`
			Pincode string `json:"pincode"`
			Status  string `json:"status"`
			Summary *bulk.Summary
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		if row.Summary != nil {
			if row.Summary.Rows != rows || !row.Summary.Complete || row.Summary.NotFound != rows/2 {
				t.Errorf("summary %+v", row.Summary)
			}
			continue
		}
		n++
		want := fmt.Sprint(800001 + (n-1)%2*1000)
		if row.Line != n || row.Pincode != want {
			t.Fatalf("row %d is line %d pincode %s, want %s", n, row.Line, row.Pincode, want)
		}
	}
	if err := <-done; err != nil || n != rows {
		t.Fatalf("%d rows, err %v", n, err)
	}
}

// cutReader yields its text, then fails.
type cutReader struct {
	text string
	err  error
}

func (r *cutReader) Read(p []byte) (int, error) {
	if r.text == "" {
		return 0, r.err
	}
	n := copy(p, r.text)
	r.text = r.text[n:]
	return n, nil
}

// TestReaderFailure stops the file at a failed read, keeping the cause.
func TestReaderFailure(t *testing.T) {
	cause := errors.New("connection reset")
	for _, f := range []bulk.Format{bulk.CSV, bulk.JSONLines} {
		in := "pincode\n800001\n"
		if f == bulk.JSONLines {
			in = `{"pincode":"800001"}` + "\n"
		}
		var out strings.Builder
		sum, err := bulk.Pincodes(context.Background(), smallDir(t).Directory, &cutReader{in, cause}, &out, f, bulk.Options{})
		if !errors.Is(err, bulk.ErrRead) || !errors.Is(err, cause) || sum.Rows != 1 || sum.Complete {
			t.Errorf("format %d: %+v %v", f, sum, err)
		}
		if !strings.Contains(out.String(), "reading the file: connection reset") {
			t.Errorf("format %d: no stop row: %q", f, out.String())
		}
	}
}

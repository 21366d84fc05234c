package indiapost_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"testing"

	"github.com/pinsight/pinsight/adapters/indiapost"
)

// directoryHeader is the header of the published directory file.
const directoryHeader = "circlename,regionname,divisionname,officename,pincode,officetype,delivery,district,statename,latitude,longitude\n"

// FuzzReadDirectory feeds arbitrary bytes to the directory reader: it never
// panics, and every record after the header is counted once, as a row or
// as malformed, with the rows returned numbered 1..Rows.
func FuzzReadDirectory(f *testing.F) {
	for _, s := range []string{
		directoryHeader + "Delhi Circle,DivisionHQ,New Delhi GPO,Connaught Place SO,110001,PO,Delivery,NEW DELHI,DELHI,28.6304,77.2177\n",
		"\ufeff" + directoryHeader + "a,b,c,d,110001,BO,Delivery,e,f,NA,NA\r\n",
		directoryHeader + "too,few,fields\n" + "a,b,c,\"d\"x\",110001,BO,Delivery,e,f,1,2\n" + "\"unterminated,b\n",
		directoryHeader + "a,b,c,\"multi\nline\",110001,BO,Delivery,e,f,1,2\n\n\n",
		"pincode,officename\n110001,x\n",
		"",
		"\x1f\x8b\x08\x00garbage",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, sum, err := indiapost.ReadDirectory(bytes.NewReader(data), "directory.csv")
		if err != nil {
			return // no header, missing columns, bad gzip: refused as a whole
		}
		if len(rows) != sum.Rows || sum.Malformed < len(sum.Problems) {
			t.Fatalf("%d rows returned, summary %+v", len(rows), sum)
		}
		for i, r := range rows {
			if r.Row != i+1 {
				t.Fatalf("row %d numbered %d", i+1, r.Row)
			}
		}
		for _, p := range sum.Problems {
			if p.Line < 1 || p.Err == "" {
				t.Fatalf("problem without a line or a reason: %+v", p)
			}
		}
		if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			return // gzipped: the record count below reads plain text
		}
		if want := recordsAfterHeader(data); sum.Rows+sum.Malformed != want {
			t.Fatalf("%d rows + %d malformed, but the file has %d records after its header", sum.Rows, sum.Malformed, want)
		}
	})
}

// recordsAfterHeader counts what a lenient CSV reader yields after the
// header: records and unparseable records alike.
func recordsAfterHeader(data []byte) int {
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord, cr.LazyQuotes = -1, true
	n := -1 // the header
	for {
		_, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return max(n, 0)
		}
		var pe *csv.ParseError
		if err != nil && !errors.As(err, &pe) {
			return max(n, 0)
		}
		n++
	}
}

package indiapost_test

import (
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/indiapost"
)

func TestMalformedRowsReportedAndSkipped(t *testing.T) {
	path := filepath.Join(fixtureDir, "all_india_pincode_directory.csv")
	rows, sum, err := indiapost.ReadDirectory(openFile(t, path), path)
	if err != nil {
		t.Fatal(err)
	}
	// Line 11 has 10 fields, line 69 has 12; line 1 is the header.
	want := []indiapost.Problem{
		{File: "testdata/all_india_pincode_directory.csv", Line: 11, Err: "10 fields, want 11"},
		{File: "testdata/all_india_pincode_directory.csv", Line: 69, Err: "12 fields, want 11"},
	}
	if sum.Malformed != 2 || !reflect.DeepEqual(sum.Problems, want) {
		t.Fatalf("malformed %d, problems %+v; want %+v", sum.Malformed, sum.Problems, want)
	}
	if sum.Rows != 66 || len(rows) != 66 {
		t.Fatalf("%d rows (summary %d), want 66", len(rows), sum.Rows)
	}
	for _, r := range rows {
		if r.Name == "Broken Row B.O" || r.Name == "Too Wide B.O" {
			t.Errorf("malformed row kept: %+v", r)
		}
	}
	// The quoted field with a comma (line 22) is one field.
	if r := rows[19]; r.Name != "Sector 21, Faridabad S.O" || r.Pincode != "121004" {
		t.Errorf("line 22 = %q %q, want the quoted name with its comma", r.Name, r.Pincode)
	}
	// The malformed rows are reported by Load too.
	if res := loadFixture(t); res.Files[0].Malformed != 2 || res.Dataset.Report.MalformedRows != 2 {
		t.Errorf("Load: file summary %+v, report malformed %d; want 2", res.Files[0], res.Dataset.Report.MalformedRows)
	}
}

func TestBadLGDRowsReportedAndSkipped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lgd_districts.csv")
	writeFile(t, path, "state_code,state_name,district_code,district_name\n"+
		"7,Delhi,77,Central\n"+
		"7,Delhi,x,Nowhere\n"+ // line 3: code not a number
		"7,Delhi,79\n"+ // line 4: too short
		"7,Delhi,79,New Delhi\n")
	got, sum, err := indiapost.ReadDistricts(openFile(t, path), path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Code != 79 || got[1].Name != "New Delhi" || got[1].StateCode != 7 {
		t.Fatalf("districts %+v, want 77 and 79", got)
	}
	if sum.Malformed != 2 || sum.Problems[0].Line != 3 || sum.Problems[1].Line != 4 {
		t.Fatalf("summary %+v, want lines 3 and 4 reported", sum)
	}
}

// gzipFile writes a gzipped copy of src to dst.
func gzipFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// openFile opens path for the test's duration.
func openFile(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestGzipAndPlainReadAlike(t *testing.T) {
	plain := loadFixture(t)
	dir := t.TempDir()
	entries, err := os.ReadDir(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() { // testdata/fuzz holds the fuzz corpora
			continue
		}
		gzipFile(t, filepath.Join(fixtureDir, e.Name()), filepath.Join(dir, e.Name()+".gz"))
	}
	files := indiapost.FindFiles(dir, indiapost.Files{})
	if !strings.HasSuffix(files.Directory, ".csv.gz") || !strings.HasSuffix(files.Villages, ".csv.gz") {
		t.Fatalf("FindFiles(gz dir) = %+v, want the .csv.gz files", files)
	}
	zipped, err := indiapost.Load(files)
	if err != nil {
		t.Fatal(err)
	}
	a, b := plain.Dataset, zipped.Dataset
	if !reflect.DeepEqual(a.Offices, b.Offices) || !reflect.DeepEqual(a.Districts, b.Districts) ||
		!reflect.DeepEqual(a.Villages, b.Villages) || !reflect.DeepEqual(a.Report, b.Report) {
		t.Fatal(".csv.gz files gave another dataset than the .csv files")
	}
	// Gzip is recognised by its magic bytes, whatever the name.
	renamed := filepath.Join(dir, "directory.csv")
	if err := os.Rename(files.Directory, renamed); err != nil {
		t.Fatal(err)
	}
	rows, _, err := indiapost.ReadDirectory(openFile(t, renamed), renamed)
	if err != nil || len(rows) != 66 {
		t.Fatalf("gzip named .csv: %d rows, %v; want 66", len(rows), err)
	}
}

func TestReadRefusesUnusableFiles(t *testing.T) {
	dir := t.TempDir()
	header := "circlename,regionname,divisionname,officename,pincode,officetype,delivery,district,statename,latitude,longitude\n"
	truncated := filepath.Join(dir, "truncated.csv.gz")
	gzipFile(t, filepath.Join(fixtureDir, "all_india_pincode_directory.csv"), truncated)
	data, err := os.ReadFile(truncated)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, truncated, string(data[:len(data)/2]))
	tests := []struct {
		name, content, wantErr string
	}{
		{"empty.csv", "", "reading header"},
		{"no_pincode.csv", strings.Replace(header, "pincode,", "pin,", 1) + "a,b,c,d,110001,BO,Delivery,e,f,NA,NA\n", `missing column "pincode"`},
		{"header_only.csv", header, "no usable rows"},
		{"bad_pins_only.csv", header + "a,b,c,d,011001,BO,Delivery,e,f,NA,NA\n", "no usable rows"},
		{"truncated.csv.gz", "", "unexpected EOF"},
		{"absent.csv", "", "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			if tt.content != "" || tt.name == "empty.csv" {
				writeFile(t, path, tt.content)
			}
			res, err := indiapost.Load(indiapost.Files{Directory: path})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || res != nil {
				t.Fatalf("Load = %v, %v; want an error containing %q", res, err, tt.wantErr)
			}
		})
	}
	if _, err := indiapost.Load(indiapost.Files{}); !errors.Is(err, indiapost.ErrNoDirectory) {
		t.Fatalf("Load without a directory = %v, want ErrNoDirectory", err)
	}
}

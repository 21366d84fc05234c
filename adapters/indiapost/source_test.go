package indiapost_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/domain/postal"
)

// fileSHA256 is the hex SHA-256 of a file's bytes.
func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// TestSourceNamesTheFilesRead checks the source a load of OS files records:
// kind files, no release date, each file's role, base name, rows and the
// SHA-256 of its bytes, in reading order.
func TestSourceNamesTheFilesRead(t *testing.T) {
	src := loadFixture(t).Dataset.Source
	if src.Kind != postal.SourceFiles || src.Release != "" {
		t.Fatalf("source = %+v, want files without a release", src)
	}
	want := []postal.SourceFile{
		{Role: indiapost.RoleDirectory, Name: "all_india_pincode_directory.csv", Rows: 66},
		{Role: indiapost.RoleStates, Name: "lgd_states.csv"},
		{Role: indiapost.RoleDistricts, Name: "lgd_districts.csv"},
		{Role: indiapost.RoleLegacyDistricts, Name: "lgd_districts_legacy_c2021.csv"},
		{Role: indiapost.RoleVillages, Name: "lgd_villages_pincode_fixture.csv"},
	}
	if len(src.Files) != len(want) {
		t.Fatalf("source files %+v, want %d", src.Files, len(want))
	}
	for i, w := range want {
		got := src.Files[i]
		if got.Role != w.Role || got.Name != w.Name || got.Date != "" || got.Rows == 0 || (w.Rows != 0 && got.Rows != w.Rows) {
			t.Errorf("file %d = %+v, want %+v", i, got, w)
		}
		if sum := fileSHA256(t, filepath.Join(fixtureDir, w.Name)); got.SHA256 != sum {
			t.Errorf("%s: sha256 %s, want %s", w.Name, got.SHA256, sum)
		}
	}
}

// TestLoadFromFS reads the same files from an fs.FS, plain and gzipped (the
// gzip trailer's size hint and the SHA-256 of the stored bytes included),
// and from OS paths: same dataset; an Embedded mark gives the release and
// each file's date.
func TestLoadFromFS(t *testing.T) {
	plain := loadFixture(t)
	fromFS, err := indiapost.Load(indiapost.FindFS(os.DirFS(fixtureDir)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plain.Dataset, fromFS.Dataset) {
		t.Fatal("os.DirFS gave another dataset (or source) than the OS paths")
	}
	zipped := fstest.MapFS{}
	entries, err := os.ReadDir(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(fixtureDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		zw.Close()
		zipped[e.Name()+".gz"] = &fstest.MapFile{Data: buf.Bytes()}
	}
	files := indiapost.FindFS(zipped)
	files.Embedded = &indiapost.Embedded{Dates: map[string]string{
		"all_india_pincode_directory.csv.gz": "2025-10-03", "lgd_states.csv.gz": "2021-07-02"}}
	res, err := indiapost.Load(files)
	if err != nil {
		t.Fatal(err)
	}
	a, b := plain.Dataset, res.Dataset
	if !reflect.DeepEqual(a.Offices, b.Offices) || !reflect.DeepEqual(a.Districts, b.Districts) ||
		!reflect.DeepEqual(a.Villages, b.Villages) || !reflect.DeepEqual(a.Report, b.Report) {
		t.Fatal("gzipped files in an fs.FS gave another dataset than the .csv files")
	}
	src := b.Source
	if src.Kind != postal.SourceEmbedded || src.Release != "2025-10-03" || len(src.Files) != 5 ||
		src.Files[0].Date != "2025-10-03" || src.Files[1].Date != "2021-07-02" || src.Files[2].Date != "" {
		t.Fatalf("source = %+v, want embedded, release 2025-10-03 and the known dates", src)
	}
	for _, f := range src.Files {
		sum := sha256.Sum256(zipped[f.Name].Data)
		if f.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: sha256 %s is not that of the stored (gzipped) bytes", f.Name, f.SHA256)
		}
	}
}

func TestFindFS(t *testing.T) {
	fsys := fstest.MapFS{
		"all_india_pincode_directory.csv":    {},
		"all_india_pincode_directory.csv.gz": {},
		"lgd_states.csv":                     {},
		"lgd_districts.csv.gz":               {Mode: 0o755 | os.ModeDir}, // a folder is not a file
		"lgd_villages_pincode_a.csv":         {},
		"sub/lgd_districts.csv":              {},
	}
	got := indiapost.FindFS(fsys)
	want := indiapost.Files{FS: fsys, Directory: "all_india_pincode_directory.csv.gz", States: "lgd_states.csv",
		Villages: "lgd_villages_pincode_a.csv"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("FindFS = %+v, want %+v", got, want)
	}
}

package indiapost

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/pinsight/pinsight/domain/postal"
)

// Files names the dataset files; empty names are not loaded.
type Files struct {
	// FS holds the files by name (fs.FS path syntax); nil means the names
	// are OS paths.
	FS fs.FS

	Directory       string // All India Pincode Directory (required to load anything)
	States          string // LGD states
	Districts       string // LGD districts, current
	LegacyDistricts string // LGD districts, circa 2021
	Villages        string // LGD villages with PIN codes

	// Embedded marks the snapshot compiled into the binary and says what is
	// known of it; nil for files named by the operator.
	Embedded *Embedded
}

// Embedded is what the binary knows of its embedded files beyond their
// content.
type Embedded struct {
	// Dates holds each file's publication date (YYYY-MM-DD) by name; the
	// directory's date is the release date.
	Dates map[string]string
}

// Known file names in a data directory, without the .csv / .csv.gz ending.
const (
	DirectoryName       = "all_india_pincode_directory"
	StatesName          = "lgd_states"
	DistrictsName       = "lgd_districts"
	LegacyDistrictsName = "lgd_districts_legacy_c2021"
)

// villagesGlob finds the LGD village files (one per state as published).
const villagesGlob = "lgd_villages_pincode*"

// FindFS looks for the known file names (.csv.gz, else .csv) at the root of
// fsys.
func FindFS(fsys fs.FS) Files {
	find := func(name string) string {
		for _, ext := range []string{".csv.gz", ".csv"} {
			if st, err := fs.Stat(fsys, name+ext); err == nil && !st.IsDir() {
				return name + ext
			}
		}
		return ""
	}
	f := Files{FS: fsys, Directory: find(DirectoryName), States: find(StatesName),
		Districts: find(DistrictsName), LegacyDistricts: find(LegacyDistrictsName)}
	if m, _ := fs.Glob(fsys, villagesGlob); len(m) > 0 {
		f.Villages = m[0]
	}
	return f
}

// FindFiles looks for the known file names in the OS folder dir (none when
// dir is ""), as FindFS does, and returns their paths. Fields already set
// in override win.
func FindFiles(dir string, override Files) Files {
	var found Files
	if dir != "" {
		found = FindFS(os.DirFS(dir))
	}
	pick := func(set, name string) string {
		if set != "" || name == "" {
			return set
		}
		return filepath.Join(dir, filepath.FromSlash(name))
	}
	return Files{
		Directory: pick(override.Directory, found.Directory), States: pick(override.States, found.States),
		Districts: pick(override.Districts, found.Districts), LegacyDistricts: pick(override.LegacyDistricts, found.LegacyDistricts),
		Villages: pick(override.Villages, found.Villages),
	}
}

// Roles of the dataset files, as Summary.Role and postal.SourceFile.Role
// report them.
const (
	RoleDirectory       = "directory"
	RoleStates          = "states"
	RoleDistricts       = "districts"
	RoleLegacyDistricts = "legacy_districts"
	RoleVillages        = "villages"
)

// open opens one of the files: in FS, or on the OS when FS is nil.
func (f Files) open(name string) (fs.File, error) {
	if f.FS == nil {
		return os.Open(name)
	}
	return f.FS.Open(name)
}

// baseName is a file's name without its folder.
func (f Files) baseName(name string) string {
	if f.FS == nil {
		return filepath.Base(name)
	}
	return path.Base(name)
}

// read opens the file of a role and hands it to read, closing it after.
func read[T any](f Files, role, name string, read func(io.Reader, string) (T, Summary, error)) (T, Summary, error) {
	file, err := f.open(name)
	if err != nil {
		var zero T
		return zero, Summary{File: name, Role: role}, fmt.Errorf("indiapost: %w", err)
	}
	defer file.Close()
	out, s, err := read(file, name)
	s.Role = role
	return out, s, err
}

// Result is a loaded dataset with what each file gave.
type Result struct {
	Dataset  *postal.Dataset
	Files    []Summary
	Duration time.Duration
}

// ErrNoDirectory is returned when no directory file was given or found.
var ErrNoDirectory = errors.New("indiapost: no pincode directory file (all_india_pincode_directory.csv[.gz])")

// Load reads the files and cleans them into a dataset whose Source names
// the files read. The directory is read while the smaller files are read
// beside it.
func Load(f Files) (*Result, error) {
	start := time.Now()
	if f.Directory == "" {
		return nil, ErrNoDirectory
	}
	var (
		rows     []postal.RawOffice
		dirSum   Summary
		dirErr   error
		finished = make(chan struct{})
	)
	go func() {
		defer close(finished)
		rows, dirSum, dirErr = read(f, RoleDirectory, f.Directory, ReadDirectory)
	}()
	lgd, villages, others, err := readSideFiles(f)
	<-finished
	if dirErr != nil {
		return nil, dirErr
	}
	if err != nil {
		return nil, err
	}
	res := &Result{Files: append([]Summary{dirSum}, others...)}
	res.Dataset = postal.Build(rows, villages, lgd)
	res.Dataset.Report.MalformedRows = dirSum.Malformed
	res.Dataset.Report.OfficeRows += dirSum.Malformed
	res.Dataset.Source = f.source(res.Files)
	res.Duration = time.Since(start)
	if len(res.Dataset.Offices) == 0 {
		return nil, fmt.Errorf("indiapost: %s holds no usable rows", f.Directory)
	}
	return res, nil
}

// readSideFiles reads the LGD files (when both states and districts are
// given) and the villages file (when given).
func readSideFiles(f Files) (*postal.LGD, []postal.RawVillage, []Summary, error) {
	var sums []Summary
	var lgd *postal.LGD
	var s Summary
	var err error
	if f.States != "" && f.Districts != "" {
		lgd = &postal.LGD{}
		if lgd.States, s, err = read(f, RoleStates, f.States, ReadStates); err != nil {
			return nil, nil, nil, err
		}
		sums = append(sums, s)
		if lgd.Districts, s, err = read(f, RoleDistricts, f.Districts, ReadDistricts); err != nil {
			return nil, nil, nil, err
		}
		sums = append(sums, s)
		if f.LegacyDistricts != "" {
			if lgd.Legacy, s, err = read(f, RoleLegacyDistricts, f.LegacyDistricts, ReadDistricts); err != nil {
				return nil, nil, nil, err
			}
			sums = append(sums, s)
		}
	}
	var villages []postal.RawVillage
	if f.Villages != "" {
		if villages, s, err = read(f, RoleVillages, f.Villages, ReadVillages); err != nil {
			return nil, nil, nil, err
		}
		sums = append(sums, s)
	}
	return lgd, villages, sums, nil
}

// source describes the files read (sums, in reading order).
func (f Files) source(sums []Summary) postal.Source {
	src := postal.Source{Kind: postal.SourceFiles}
	var dates map[string]string
	if f.Embedded != nil {
		src.Kind, dates = postal.SourceEmbedded, f.Embedded.Dates
		src.Release = dates[f.Directory]
	}
	for _, s := range sums {
		src.Files = append(src.Files, postal.SourceFile{Role: s.Role, Name: f.baseName(s.File),
			Date: dates[s.File], Rows: s.Rows, SHA256: s.SHA256})
	}
	return src
}

package indiapost

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pinsight/pinsight/domain/postal"
)

// Files names the dataset files; empty names are not loaded.
type Files struct {
	Directory       string // All India Pincode Directory (required to load anything)
	States          string // LGD states
	Districts       string // LGD districts, current
	LegacyDistricts string // LGD districts, circa 2021
	Villages        string // LGD villages with PIN codes
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

// FindFiles looks for the known file names in dir (.csv or .csv.gz). Fields
// already set in override win.
func FindFiles(dir string, override Files) Files {
	find := func(set, name string) string {
		if set != "" || dir == "" {
			return set
		}
		for _, ext := range []string{".csv.gz", ".csv"} {
			p := filepath.Join(dir, name+ext)
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
		return ""
	}
	f := Files{
		Directory: find(override.Directory, DirectoryName), States: find(override.States, StatesName),
		Districts: find(override.Districts, DistrictsName), LegacyDistricts: find(override.LegacyDistricts, LegacyDistrictsName),
		Villages: override.Villages,
	}
	if f.Villages == "" && dir != "" {
		if m, _ := filepath.Glob(filepath.Join(dir, villagesGlob)); len(m) > 0 {
			f.Villages = m[0]
		}
	}
	return f
}

// Result is a loaded dataset with what each file gave.
type Result struct {
	Dataset  *postal.Dataset
	Files    []Summary
	Duration time.Duration
}

// ErrNoDirectory is returned when no directory file was given or found.
var ErrNoDirectory = errors.New("indiapost: no pincode directory file (all_india_pincode_directory.csv[.gz])")

// Load reads the files and cleans them into a dataset. The directory is
// read while the smaller files are read beside it.
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
		rows, dirSum, dirErr = ReadDirectory(f.Directory)
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
		if lgd.States, s, err = ReadStates(f.States); err != nil {
			return nil, nil, nil, err
		}
		sums = append(sums, s)
		if lgd.Districts, s, err = ReadDistricts(f.Districts); err != nil {
			return nil, nil, nil, err
		}
		sums = append(sums, s)
		if f.LegacyDistricts != "" {
			if lgd.Legacy, s, err = ReadDistricts(f.LegacyDistricts); err != nil {
				return nil, nil, nil, err
			}
			sums = append(sums, s)
		}
	}
	var villages []postal.RawVillage
	if f.Villages != "" {
		if villages, s, err = ReadVillages(f.Villages); err != nil {
			return nil, nil, nil, err
		}
		sums = append(sums, s)
	}
	return lgd, villages, sums, nil
}

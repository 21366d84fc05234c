package indiapost

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/pinsight/pinsight/domain/postal"
)

// WriteDirectory writes rows as an All India Pincode Directory file
// (data.gov.in columns, a header row), the format ReadDirectory reads.
func WriteDirectory(w io.Writer, rows []postal.RawOffice) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(directoryColumns); err != nil {
		return err
	}
	for _, r := range rows {
		if err := cw.Write([]string{r.Circle, r.Region, r.Division, r.Name, r.Pincode, r.OfficeType, r.Delivery,
			r.District, r.State, r.Latitude, r.Longitude}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteRelease writes a data folder for --data-dir into dir: the files of
// from, the directory's rows passed through edit (written as
// all_india_pincode_directory.csv) and the other files copied byte for
// byte under their names. It makes a new release out of a known one.
func WriteRelease(dir string, from Files, edit func([]postal.RawOffice) []postal.RawOffice) error {
	rows, _, err := read(from, RoleDirectory, from.Directory, ReadDirectory)
	if err != nil {
		return err
	}
	out, err := os.Create(filepath.Join(dir, DirectoryName+".csv"))
	if err != nil {
		return err
	}
	if err := WriteDirectory(out, edit(rows)); err != nil {
		_ = out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	for _, name := range []string{from.States, from.Districts, from.LegacyDistricts, from.Villages} {
		if name == "" {
			continue
		}
		if err := copyFile(from, name, filepath.Join(dir, from.baseName(name))); err != nil {
			return err
		}
	}
	return nil
}

// copyFile copies the file name of f to the OS path to.
func copyFile(f Files, name, to string) error {
	in, err := f.open(name)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return fmt.Errorf("copying %s: %w", name, err)
	}
	return out.Close()
}

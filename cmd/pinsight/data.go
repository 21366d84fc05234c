package main

import (
	"github.com/spf13/pflag"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
)

// dataConfig names the dataset files of serve and import.
type dataConfig struct {
	Dir   string          // folder searched for the known file names
	Files indiapost.Files // explicit files; each wins over Dir
}

// files resolves the configured files: explicit ones, then the known names
// in Dir; with no data flag at all, the embedded snapshot.
func (c dataConfig) files() indiapost.Files {
	if !c.configured() {
		return snapshot.Files()
	}
	return indiapost.FindFiles(c.Dir, c.Files)
}

// configured reports whether any data file or folder was named (else the
// embedded snapshot is served).
func (c dataConfig) configured() bool { return c.Dir != "" || c.Files != (indiapost.Files{}) }

// dataFlags adds the dataset flags shared by serve and import; use says
// what the command does with --data-dir's files ("served", "imported").
func dataFlags(f *pflag.FlagSet, c *dataConfig, use string) {
	f.StringVar(&c.Dir, "data-dir", "", "folder holding the official files by their published names (.csv or .csv.gz), "+use+" instead of the embedded snapshot")
	f.StringVar(&c.Files.Directory, "postal-data", "", "All India Pincode Directory file (overrides --data-dir)")
	f.StringVar(&c.Files.Villages, "villages-data", "", "LGD villages-with-PIN-codes file (overrides --data-dir)")
	f.StringVar(&c.Files.States, "states-data", "", "LGD states file (overrides --data-dir)")
	f.StringVar(&c.Files.Districts, "districts-data", "", "LGD current districts file (overrides --data-dir)")
	f.StringVar(&c.Files.LegacyDistricts, "legacy-districts-data", "", "LGD legacy (c. 2021) districts file (overrides --data-dir)")
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/app/releases"
	"github.com/pinsight/pinsight/domain/postal"
)

// loadReport is what import prints once the files are read and cleaned.
type loadReport struct {
	Source    postal.Source         `json:"source"`
	Files     []indiapost.Summary   `json:"files"`
	Cleaning  postal.CleaningReport `json:"cleaning"`
	States    int                   `json:"states"`
	Districts int                   `json:"districts"`
	HasLGD    bool                  `json:"lgd_codes"`
	Version   string                `json:"version"`
	LoadMs    int64                 `json:"load_ms"`
}

// importReport is what import prints once the database holds the dataset.
type importReport struct {
	Import   postgres.ImportStats `json:"import"`
	ImportMs int64                `json:"import_ms"`
	Release  releaseReport        `json:"release"`
}

// releaseReport is what the release history made of an import.
type releaseReport struct {
	Name       string `json:"name"`       // the release's publication date, else its version
	Seq        int64  `json:"seq"`        // 1 for the first release
	New        bool   `json:"new"`        // false: the latest release already (the same dataset imported again)
	Changes    int    `json:"changes"`    // against the release before it (GET /api/v1/dataset/changes lists them)
	Terminated int    `json:"terminated"` // PINs of earlier releases the imported one does not have
}

func newImportCmd() *cobra.Command {
	var cfg databaseConfig
	var data dataConfig
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "import --database-url postgres://...",
		Short: "Load, clean and import the India Post files into PostgreSQL (PostgreSQL storage only)",
		Long: "import is for PostgreSQL storage only. With SQLite (serve's default) or memory: there is nothing to\n" +
			"import: serve reads the dataset at start, from the embedded snapshot or from serve --data-dir.\n\n" +
			"import reads the dataset as serve does (the embedded snapshot, unless --data-dir or a per-file flag\n" +
			"names files), prints the cleaning report as JSON, then (unless --dry-run, which needs no database)\n" +
			"applies the migrations and replaces the database's postal dataset in one transaction with COPY,\n" +
			"recording its source: readers see the old dataset until the new one is complete, and running servers\n" +
			"on the database (NOTIFY pinsight_dataset) reload it within seconds. Importing again is safe.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := bindEnv(cmd); err != nil {
				return err
			}
			if !dryRun {
				if err := checkImportTarget(cfg.URL); err != nil {
					return err
				}
			}
			status := cmd.ErrOrStderr()
			tty := false
			if f, ok := status.(*os.File); ok {
				tty = isTerminal(f)
			}
			return runImport(cmd.Context(), cmd.OutOrStdout(), status, tty, postgresConfig(cfg), data, dryRun)
		},
	}
	databaseFlags(cmd.Flags(), &cfg)
	postgresOnly(cmd.Flags().Lookup("database-url"), &cfg.URL)
	dataFlags(cmd.Flags(), &data, "imported")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "load and clean the files and print the report; do not touch the database")
	documentEnv(cmd)
	return cmd
}

// postgresOnly makes import's --database-url (bound to url) one without a
// default, whose help names the only storage import serves.
func postgresOnly(f *pflag.Flag, url *string) {
	*url, f.DefValue = "", ""
	f.Usage = "the PostgreSQL database to import into, postgres://... or postgresql://... (required unless --dry-run; " +
		"SQLite and memory: storage have nothing to import: serve reads the dataset at start)"
}

// errImportNeedsPostgres: only Postgres holds an imported directory; with
// the other storages serve reads the files itself.
var errImportNeedsPostgres = errors.New("import is for PostgreSQL storage only: it loads the dataset into the database " +
	"that --database-url postgres://... names, for every server on it. With sqlite: (the default) or memory: storage " +
	"there is nothing to import: serve reads the dataset at start, from the embedded snapshot or from serve --data-dir DIR")

// checkImportTarget accepts a Postgres --database-url only.
func checkImportTarget(rawURL string) error {
	if rawURL == "" {
		return fmt.Errorf("%w (--database-url is not set)", errImportNeedsPostgres)
	}
	scheme, _, err := backendFor(rawURL)
	if err != nil {
		return err
	}
	if scheme != "postgres" && scheme != "postgresql" {
		return fmt.Errorf("%w (--database-url is %s)", errImportNeedsPostgres, scheme+":")
	}
	return nil
}

// runImport loads the files, prints the report and imports unless dryRun.
// Progress goes to status: bytes read and rows copied with their rate and
// time left, redrawn in place when tty, else one summary line per step.
func runImport(ctx context.Context, out, status io.Writer, tty bool, cfg postgres.Config, data dataConfig, dryRun bool) error {
	files := data.files()
	reading := newProgress(status, tty, "reading files", bytesUnit,
		fileSizes(files.FS, files.Directory, files.States, files.Districts, files.LegacyDistricts, files.Villages))
	files.FS = countingFS{fsys: files.FS, p: reading}
	res, err := indiapost.Load(files)
	if err != nil {
		return fmt.Errorf("loading postal data: %w", err)
	}
	reading.finish()
	ds := res.Dataset
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	if err := enc.Encode(loadReport{Source: ds.Source, Files: res.Files, Cleaning: ds.Report, States: len(ds.States), Districts: len(ds.Districts),
		HasLGD: ds.HasLGD, Version: ds.Fingerprint(), LoadMs: res.Duration.Milliseconds()}); err != nil {
		return err
	}
	if dryRun {
		return nil
	}
	db, err := postgres.Open(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := postgres.Migrate(ctx, db); err != nil {
		return err
	}
	start := time.Now()
	copying := newProgress(status, tty, "copying rows", rowsUnit, 0)
	st, err := postgres.ImportDatasetProgress(ctx, db, ds, func(copied, total int) { copying.set(int64(copied), int64(total)) })
	if err != nil {
		return err
	}
	copying.finish()
	loaded, err := releases.New(postgres.NewReleaseStore(db)).Load(ctx, ds, firstRelease)
	if err != nil {
		return fmt.Errorf("imported, but recording the release failed (servers record it when they load it): %w", err)
	}
	rel := releaseReport{Name: loaded.Release.Name(), Seq: loaded.Release.Seq, New: loaded.New, Changes: loaded.Release.Changes,
		Terminated: len(ds.Terminated)}
	return enc.Encode(importReport{Import: st, ImportMs: time.Since(start).Milliseconds(), Release: rel})
}

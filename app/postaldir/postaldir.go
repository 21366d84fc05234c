// Package postaldir opens the India Post directory in one call: the
// official files embedded in the module (the snapshot of package
// indiapost/snapshot), or a folder holding files of the same names, read,
// cleaned and indexed in memory behind the directory use cases (lookups,
// office details, villages, states and districts, search, autocomplete as
// the user types, batches, offices near a point or in a DIGIPIN cell, the
// distance and bearing between PINs, DIGIPINs and points, the dataset's
// description)
// and the geocoder (the offices serving a point, by its DIGIPIN);
// BulkPincodes and BulkDigipin answer files of them row by row (package
// bulk).
//
//	dir, err := postaldir.Open(ctx)
//	pin, offices, err := dir.Lookup(ctx, "110001")
//	near, err := dir.Geocoder.Nearest(ctx, geo.Point{Lat: 28.63, Lon: 77.22}, 3)
//	suggestions, err := dir.Autocomplete(ctx, "conaught pl", 10, nil)
//	d, err := dir.Distance(ctx, "110001", "39J-49L-L8T4")
//	cell, offices, err := dir.CellOffices(ctx, "39J-49", paging.Page{})
//
// It is the one package outside cmd that wires adapters (memory and
// indiapost); it links no HTTP framework, SQL driver or fx. Opening the
// snapshot decodes its dataset from a derived copy instead of cleaning the
// files: about 0.55 to 0.7 s of CPU, half of what the files take
// (BenchmarkOpenFiles), and a peak of about 108 MB of heap; the indexed
// directory keeps about 72 MB (BenchmarkOpen). Indexing is most of it now.
package postaldir

import (
	"context"
	"io"
	"io/fs"
	"os"
	"runtime"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/bulk"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/domain/postal"
)

// Postal is an opened directory: its use cases, and the geocoder over the
// same offices. Together they are what a transport needs to serve every
// postal and DIGIPIN operation (for the HTTP API: httpapi.Routes's
// Directory and Geocoder).
type Postal struct {
	*directory.Directory
	// Geocoder answers which offices serve a point; without boundary
	// data, by distance alone.
	Geocoder *geocode.Geocoder
}

// Open returns the directory over the snapshot embedded in the module.
// The snapshot's dataset is decoded from its derived copy (see
// snapshot.Dataset), which gives what reading and cleaning the files
// gives, several times faster.
func Open(ctx context.Context) (*Postal, error) {
	return open(ctx, snapshot.Dataset)
}

// OpenFS returns the directory over the official files at the root of
// fsys, by their published names, .csv or .csv.gz: the All India Pincode
// Directory (all_india_pincode_directory, required), and when present the
// LGD states and districts (lgd_states, lgd_districts, with
// lgd_districts_legacy_c2021) and villages (lgd_villages_pincode*).
func OpenFS(ctx context.Context, fsys fs.FS) (*Postal, error) {
	return open(ctx, func() (*postal.Dataset, error) {
		res, err := indiapost.Load(indiapost.FindFS(fsys))
		if err != nil {
			return nil, err
		}
		return res.Dataset, nil
	})
}

// OpenDir is OpenFS over the folder dir.
func OpenDir(ctx context.Context, dir string) (*Postal, error) {
	return OpenFS(ctx, os.DirFS(dir))
}

// open indexes the dataset read returns. It returns when ctx is done,
// leaving the reading to finish unseen.
func open(ctx context.Context, read func() (*postal.Dataset, error)) (*Postal, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type loaded struct {
		store *memory.PostalStore
		err   error
	}
	done := make(chan loaded, 1)
	go func() {
		ds, err := read()
		if err != nil {
			done <- loaded{err: err}
			return
		}
		// What the dataset was read from is garbage now: collecting it
		// before indexing lets the indexes grow in its room instead of the
		// heap growing to both together.
		runtime.GC()
		done <- loaded{store: memory.NewPostalStore(ds)}
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case l := <-done:
		if l.err != nil {
			return nil, l.err
		}
		return &Postal{Directory: directory.New(l.store), Geocoder: geocode.New(l.store, nil)}, nil
	}
}

// BulkPincodes answers a file of pincodes read from in (CSV with a pincode
// column, or JSON Lines), writing one result row per input row to out as it
// goes, in the same format: see bulk.Pincodes.
func (p *Postal) BulkPincodes(ctx context.Context, in io.Reader, out io.Writer, f bulk.Format, opt bulk.Options) (bulk.Summary, error) {
	return bulk.Pincodes(ctx, p.Directory, in, out, f, opt)
}

// BulkDigipin encodes the points and decodes the codes of a file read from
// in (CSV with latitude,longitude or digipin columns, or JSON Lines),
// writing one result row per input row to out as it goes: see bulk.Digipin.
func BulkDigipin(ctx context.Context, in io.Reader, out io.Writer, f bulk.Format, opt bulk.Options) (bulk.Summary, error) {
	return bulk.Digipin(ctx, in, out, f, opt)
}

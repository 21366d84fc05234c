package postal

import (
	"cmp"
	"slices"
	"time"
)

// Release is one loaded release of the directory, in the order releases
// were loaded: the embedded snapshot is the first.
type Release struct {
	Seq       int64     // 1 for the first release, then one more per release
	Version   string    // the dataset's Fingerprint
	Published string    // the directory file's publication date (YYYY-MM-DD); "" when not known
	Kind      string    // the source kind (SourceEmbedded, SourceFiles...)
	Offices   int       // offices in the release
	Pincodes  int       // distinct PINs in the release
	Changes   int       // changes recorded against the release before it
	LoadedAt  time.Time // when it was first loaded
}

// Name is how the API names a release: its publication date when known,
// else its version.
func (r Release) Name() string { return cmp.Or(r.Published, r.Version) }

// NewRelease describes ds as a release (Seq, Changes and LoadedAt are set
// when it is recorded).
func NewRelease(ds *Dataset) Release {
	return Release{Version: ds.Fingerprint(), Published: ds.Source.Release, Kind: ds.Source.Kind,
		Offices: len(ds.Offices), Pincodes: ds.Report.Pincodes}
}

// ReleaseOffice is what a release keeps of an office to be compared with
// the next release: enough to tell it added, removed, renamed, retyped or
// moved.
type ReleaseOffice struct {
	Pincode    Pincode
	Name       string
	OfficeType string
	Location   *Location
}

// ReleaseOffices lists ds's offices for a later Diff, by PIN then name.
func ReleaseOffices(ds *Dataset) []ReleaseOffice {
	out := make([]ReleaseOffice, len(ds.Offices))
	for i := range ds.Offices {
		o := &ds.Offices[i]
		out[i] = ReleaseOffice{Pincode: o.Pincode, Name: o.Name, OfficeType: o.OfficeType, Location: o.Location}
	}
	SortReleaseOffices(out)
	return out
}

// SortReleaseOffices sorts offices as Diff needs them: by PIN, then name,
// type and location (offices equal in all these are interchangeable).
func SortReleaseOffices(offices []ReleaseOffice) {
	slices.SortFunc(offices, func(a, b ReleaseOffice) int {
		return cmp.Or(cmp.Compare(a.Pincode, b.Pincode), cmp.Compare(a.Name, b.Name), cmp.Compare(a.OfficeType, b.OfficeType),
			compareLocations(a.Location, b.Location))
	})
}

// compareLocations orders missing locations first, then by latitude and
// longitude.
func compareLocations(a, b *Location) int {
	switch {
	case a == nil || b == nil:
		return cmp.Compare(boolInt(a != nil), boolInt(b != nil))
	}
	return cmp.Or(cmp.Compare(a.Latitude, b.Latitude), cmp.Compare(a.Longitude, b.Longitude))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

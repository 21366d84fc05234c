package ports

import (
	"context"

	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
)

// ErrReleaseTaken is RecordRelease's answer when another process recorded
// a release after the same one first: read the latest and diff again.
var ErrReleaseTaken = fault.New(fault.Conflict, "another release was recorded meanwhile")

// ReleaseStore keeps the history of the postal directory's releases: each
// release loaded, what it changed against the one before, and the latest
// release's offices to diff the next one against.
type ReleaseStore interface {
	// LatestRelease returns the newest release and its offices (sorted by
	// postal.SortReleaseOffices); found is false when none is recorded.
	LatestRelease(ctx context.Context) (r postal.Release, offices []postal.ReleaseOffice, found bool, err error)
	// RecordRelease records r as the release after the one whose Seq is
	// after (0: the first), with its offices (kept until the next release
	// is recorded) and the changes it brought, in one transaction. It
	// returns r with Seq, Changes and LoadedAt set, or ErrReleaseTaken
	// when a release after that one exists already.
	RecordRelease(ctx context.Context, after int64, r postal.Release, offices []postal.ReleaseOffice, changes []postal.Change) (postal.Release, error)
	// Releases lists every release, oldest first.
	Releases(ctx context.Context) ([]postal.Release, error)
	// Changes pages the changes of the releases after since (a Seq; 0:
	// every release), by release then in the order recorded, with their
	// total.
	Changes(ctx context.Context, since int64, page paging.Page) ([]postal.ReleaseChange, int, error)
	// PinChanges lists every PIN added or removed, by release then in the
	// order recorded.
	PinChanges(ctx context.Context) ([]postal.ReleaseChange, error)
}

// Package releases keeps the history of the postal directory's releases:
// each new release loaded is compared with the one it replaces and its
// changes recorded, and the PINs that earlier releases had and the loaded
// one does not are told apart from PINs that never existed.
package releases

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports"
)

// History records releases and lists their changes.
type History struct{ store ports.ReleaseStore }

// New returns the history kept in store.
func New(store ports.ReleaseStore) *History { return &History{store: store} }

// Loaded is what Load did.
type Loaded struct {
	Release postal.Release // the release ds is (recorded now or before)
	New     bool           // whether Load recorded it
}

// recordAttempts bounds Load's retries when other processes record
// releases at the same time.
const recordAttempts = 3

// Load records ds as a new release unless it is the latest one recorded
// (same version), with its changes against the latest, and sets
// ds.Terminated from the whole history. A history begins with the first
// release: first loads it (the embedded snapshot) when ds is not it; with
// first nil, or ds from the embedded snapshot, the history begins with ds.
// Load is to be called before ds is served.
func (h *History) Load(ctx context.Context, ds *postal.Dataset, first func() (*postal.Dataset, error)) (Loaded, error) {
	var out Loaded
	var err error
	for range recordAttempts {
		out, err = h.record(ctx, ds, first)
		if !errors.Is(err, ports.ErrReleaseTaken) {
			break
		}
	}
	if err != nil {
		return Loaded{}, err
	}
	releases, err := h.store.Releases(ctx)
	if err != nil {
		return Loaded{}, err
	}
	pins, err := h.store.PinChanges(ctx)
	if err != nil {
		return Loaded{}, err
	}
	ds.Terminated = postal.TerminatedPins(releases, pins)
	return out, nil
}

// record records ds after the latest release, when it is another release.
func (h *History) record(ctx context.Context, ds *postal.Dataset, first func() (*postal.Dataset, error)) (Loaded, error) {
	latest, baseline, found, err := h.store.LatestRelease(ctx)
	if err != nil {
		return Loaded{}, err
	}
	rel := postal.NewRelease(ds)
	if found && latest.Version == rel.Version {
		return Loaded{Release: latest}, nil
	}
	offices := postal.ReleaseOffices(ds)
	if !found {
		if first == nil || ds.Source.Kind == postal.SourceEmbedded {
			r, err := h.store.RecordRelease(ctx, 0, rel, offices, nil)
			return Loaded{Release: r, New: err == nil}, err
		}
		fds, err := first()
		if err != nil {
			return Loaded{}, fmt.Errorf("loading the first release: %w", err)
		}
		baseline = postal.ReleaseOffices(fds)
		if latest, err = h.store.RecordRelease(ctx, 0, postal.NewRelease(fds), baseline, nil); err != nil {
			return Loaded{}, err
		}
		if latest.Version == rel.Version {
			return Loaded{Release: latest, New: true}, nil
		}
	}
	var changes []postal.Change
	postal.Diff(baseline, offices, func(c postal.Change) { changes = append(changes, c) })
	r, err := h.store.RecordRelease(ctx, latest.Seq, rel, offices, changes)
	return Loaded{Release: r, New: err == nil}, err
}

// unknownRelease is the message of a since that names no release.
const unknownRelease = "no release has this name or version"

// ChangeList is one page of the changes after a release.
type ChangeList struct {
	Since    *postal.Release  // the release named by since; nil: from the start
	Releases []postal.Release // the releases after it, oldest first
	paging.List[postal.ReleaseChange]
}

// Changes pages the changes of the releases after the one since names (by
// its publication date or its version; the latest of that name), or of
// every release when since is "". An unknown since is a
// *postal.ValidationError listing the known names.
func (h *History) Changes(ctx context.Context, since string, page paging.Page) (ChangeList, error) {
	if page.Number < 0 || page.PerPage < 0 {
		return ChangeList{}, postal.Invalid("page", "must be positive")
	}
	releases, err := h.store.Releases(ctx)
	if err != nil {
		return ChangeList{}, err
	}
	var out ChangeList
	var seq int64
	if since = strings.TrimSpace(since); since != "" {
		for i := len(releases) - 1; i >= 0; i-- {
			if r := releases[i]; r.Published == since || r.Version == since {
				out.Since, seq = &releases[i], r.Seq
				break
			}
		}
		if out.Since == nil {
			names := make([]string, len(releases))
			for i, r := range releases {
				names[i] = r.Name()
			}
			msg := unknownRelease
			if len(names) > 0 {
				msg += "; known: " + strings.Join(names, ", ")
			}
			return ChangeList{}, postal.Invalid("since", msg)
		}
	}
	for _, r := range releases {
		if r.Seq > seq {
			out.Releases = append(out.Releases, r)
		}
	}
	out.Page = page.WithDefaults()
	out.Items, out.Total, err = h.store.Changes(ctx, seq, out.Page)
	return out, err
}

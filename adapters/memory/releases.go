package memory

import (
	"context"
	"sync"
	"time"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports"
)

// ReleaseStore keeps the history of the postal directory's releases in
// memory (lost on exit).
type ReleaseStore struct {
	mu       sync.RWMutex
	releases []postal.Release
	changes  []postal.ReleaseChange
	latest   []postal.ReleaseOffice // the latest release's offices
}

// NewReleaseStore returns an empty store.
func NewReleaseStore() *ReleaseStore { return &ReleaseStore{} }

// LatestRelease implements ports.ReleaseStore.
func (s *ReleaseStore) LatestRelease(context.Context) (postal.Release, []postal.ReleaseOffice, bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.releases) == 0 {
		return postal.Release{}, nil, false, nil
	}
	return s.releases[len(s.releases)-1], append([]postal.ReleaseOffice(nil), s.latest...), true, nil
}

// RecordRelease implements ports.ReleaseStore.
func (s *ReleaseStore) RecordRelease(_ context.Context, after int64, r postal.Release, offices []postal.ReleaseOffice,
	changes []postal.Change) (postal.Release, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if int64(len(s.releases)) != after {
		return postal.Release{}, ports.ErrReleaseTaken
	}
	r.Seq, r.Changes = after+1, len(changes)
	if r.LoadedAt.IsZero() {
		r.LoadedAt = time.Now()
	}
	r.LoadedAt = r.LoadedAt.UTC().Truncate(time.Microsecond)
	s.releases = append(s.releases, r)
	for _, c := range changes {
		s.changes = append(s.changes, postal.ReleaseChange{Release: r.Seq, Change: c})
	}
	s.latest = append([]postal.ReleaseOffice(nil), offices...)
	return r, nil
}

// Releases implements ports.ReleaseStore.
func (s *ReleaseStore) Releases(context.Context) ([]postal.Release, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append([]postal.Release{}, s.releases...), nil
}

// Changes implements ports.ReleaseStore.
func (s *ReleaseStore) Changes(_ context.Context, since int64, page paging.Page) ([]postal.ReleaseChange, int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	first := len(s.changes)
	for i, c := range s.changes {
		if c.Release > since {
			first = i
			break
		}
	}
	all := s.changes[first:]
	from, to := page.Bounds(len(all))
	return append([]postal.ReleaseChange{}, all[from:to]...), len(all), nil
}

// PinChanges implements ports.ReleaseStore.
func (s *ReleaseStore) PinChanges(context.Context) ([]postal.ReleaseChange, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []postal.ReleaseChange
	for _, c := range s.changes {
		if c.Kind == postal.ChangePinAdded || c.Kind == postal.ChangePinRemoved {
			out = append(out, c)
		}
	}
	return out, nil
}

var _ ports.ReleaseStore = (*ReleaseStore)(nil)

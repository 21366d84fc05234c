package memory

import (
	"bytes"
	"context"
	"slices"

	"github.com/pinsight/pinsight/domain/report"
)

// takeScreenshots takes the write instruction off r: the images to store
// (bounded) with r.Screenshots set to their kinds, or nil (keep the stored
// ones) with r.Screenshots set to kept, the kinds stored before.
func takeScreenshots(r *report.Report, kept []report.ScreenshotKind) *report.Screenshots {
	next := r.NewScreenshots
	r.NewScreenshots = nil
	if next == nil {
		r.Screenshots = slices.Clone(kept)
		return nil
	}
	b := next.Bounded()
	r.Screenshots = b.Kinds()
	return &b
}

// putScreenshotsLocked stores shots as report id's (nil: unchanged, none:
// deleted); s.mu is held.
func (s *ReportStore) putScreenshotsLocked(id int64, shots *report.Screenshots) {
	switch {
	case shots == nil:
	case len(shots.Kinds()) == 0:
		delete(s.shots, id)
	default:
		s.shots[id] = *shots
	}
}

// Screenshot implements ports.ReportStore.
func (s *ReportStore) Screenshot(_ context.Context, userID, id int64, kind report.ScreenshotKind) ([]byte, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sr, found := s.reports[id]
	if !found || sr.UserID != userID {
		return nil, report.ErrNotFound
	}
	img := s.shots[id].Of(kind)
	if len(img) == 0 {
		return nil, report.ErrNotFound
	}
	return bytes.Clone(img), nil
}

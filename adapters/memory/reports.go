package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/ports"
)

// ReportStore keeps reports in memory. Results are kept as JSON, so values
// come back exactly as they would from a database (numbers as float64,
// objects as maps) and callers never share memory with the store.
type ReportStore struct {
	mu        sync.RWMutex
	reports   map[int64]storedReport
	tokens    map[string]int64 // share token -> report id
	lastID    int64
	keys      map[idemKey]report.Idempotency
	lastPurge time.Time                    // of expired keys
	runs      map[int64][]report.Run       // report id -> its runs, oldest first
	shots     map[int64]report.Screenshots // report id -> its screenshots (none: absent)
	hooks     hookStore                    // webhooks and their deliveries
	dropJobs  func(reportIDs []int64)      // set by NewJobs: drops the waiting jobs of deleted reports
	// queueDeliveries, set by NewJobs, stores deliveries with their jobs:
	// the store's writes that finish reports queue their events on it.
	queueDeliveries func([]webhook.Delivery)
}

// idemKey is a user's idempotency key.
type idemKey struct {
	user int64
	key  string
}

type storedReport struct {
	report.Report
	results []byte
}

// NewReportStore returns an empty store.
func NewReportStore() *ReportStore {
	return &ReportStore{reports: map[int64]storedReport{}, tokens: map[string]int64{}, keys: map[idemKey]report.Idempotency{},
		shots: map[int64]report.Screenshots{}}
}

func store(r report.Report) (storedReport, error) {
	b, err := json.Marshal(r.Results)
	if err != nil {
		return storedReport{}, fmt.Errorf("memory: encode results: %w", err)
	}
	r.Results = nil
	r.Status = report.StatusOrGenerated(r.Status)
	return storedReport{Report: r, results: b}, nil
}

func (s storedReport) load() report.Report {
	r := s.Report
	r.Screenshots = slices.Clone(r.Screenshots)
	if err := json.Unmarshal(s.results, &r.Results); err != nil {
		panic("memory: stored results do not decode: " + err.Error()) // written by store
	}
	return r
}

// CreateReport implements ports.ReportStore.
func (s *ReportStore) CreateReport(ctx context.Context, r report.Report) (report.Report, error) {
	out, err := s.CreateReports(ctx, []report.Report{r}, nil)
	if err != nil {
		return report.Report{}, err
	}
	return out[0], nil
}

// CreateReports implements ports.ReportStore: every report is encoded, and
// the deliveries of those stored finished made, before any is stored, so a
// failure stores nothing.
func (s *ReportStore) CreateReports(_ context.Context, rs []report.Report, idem *report.Idempotency) ([]report.Report, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var held report.Idempotency
	if idem != nil {
		k := idemKey{idem.UserID, idem.Key}
		held = s.keys[k]
		if _, found := s.keys[k]; !found || held.Done() || held.Claim != idem.Claim {
			return nil, report.ErrClaimLost
		}
	}
	scheduled := map[int64]int{}
	for _, r := range rs {
		if r.Schedule != report.ScheduleOff {
			scheduled[r.UserID]++
		}
	}
	for user, n := range scheduled {
		if s.scheduledLocked(user)+n > report.MaxScheduled {
			return nil, report.ErrTooManyScheduled
		}
	}
	next := make([]storedReport, len(rs))
	shots := make([]*report.Screenshots, len(rs))
	var ds []webhook.Delivery
	for i, r := range rs {
		r.ID, r.Token = s.lastID+1+int64(i), report.NewShareToken()
		if _, taken := s.tokens[r.Token]; taken {
			return nil, fmt.Errorf("memory: share token %s drawn twice", r.Token) // 2^-128
		}
		shots[i] = takeScreenshots(&r, nil)
		sr, err := store(r)
		if err != nil {
			return nil, err
		}
		next[i] = sr
		finished, err := s.finishedLocked(report.Report{}, sr.load())
		if err != nil {
			return nil, err
		}
		ds = append(ds, finished...)
	}
	out := make([]report.Report, len(next))
	ids := make([]int64, len(next))
	for i, sr := range next {
		s.reports[sr.ID], s.tokens[sr.Token] = sr, sr.ID
		s.putScreenshotsLocked(sr.ID, shots[i])
		out[i], ids[i] = sr.load(), sr.ID
	}
	s.lastID += int64(len(next))
	if len(ds) > 0 {
		s.queueDeliveries(ds)
	}
	if idem != nil {
		held.Outcome, held.ReportIDs = idem.Outcome, ids
		s.keys[idemKey{idem.UserID, idem.Key}] = held
	}
	return out, nil
}

// ClaimIdempotency implements ports.ReportStore. Expired keys are purged
// at most once a minute: a scan of every key.
func (s *ReportStore) ClaimIdempotency(_ context.Context, idem report.Idempotency, now time.Time) (report.Idempotency, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Sub(s.lastPurge) >= time.Minute {
		maps.DeleteFunc(s.keys, func(_ idemKey, v report.Idempotency) bool { return !now.Before(v.ExpiresAt) })
		s.lastPurge = now
	}
	k := idemKey{idem.UserID, idem.Key}
	if cur, found := s.keys[k]; found && cur.Live(now) {
		return cloneIdempotency(cur), false, nil
	}
	idem.Outcome, idem.ReportIDs = report.OutcomeNone, nil
	s.keys[k] = idem
	return idem, true, nil
}

// ReleaseIdempotency implements ports.ReportStore.
func (s *ReportStore) ReleaseIdempotency(_ context.Context, idem report.Idempotency) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := idemKey{idem.UserID, idem.Key}
	if cur, found := s.keys[k]; found && !cur.Done() && cur.Claim == idem.Claim {
		delete(s.keys, k)
	}
	return nil
}

// cloneIdempotency is i with its own copy of ReportIDs.
func cloneIdempotency(i report.Idempotency) report.Idempotency {
	i.ReportIDs = slices.Clone(i.ReportIDs)
	return i
}

// Report implements ports.ReportStore.
func (s *ReportStore) Report(_ context.Context, userID, id int64) (report.Report, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sr, found := s.reports[id]
	if !found || sr.UserID != userID {
		return report.Report{}, report.ErrNotFound
	}
	return sr.load(), nil
}

// ReportByToken implements ports.ReportStore.
func (s *ReportStore) ReportByToken(_ context.Context, token string) (report.Report, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sr, found := s.reports[s.tokens[token]]
	if !found {
		return report.Report{}, report.ErrNotFound
	}
	return sr.load(), nil
}

// Reports implements ports.ReportStore.
func (s *ReportStore) Reports(_ context.Context, userID int64, q report.ReportQuery) ([]report.Report, int, error) {
	s.mu.RLock()
	var matched []storedReport
	for _, sr := range s.reports {
		if sr.UserID == userID && q.Matches(sr.Report) {
			matched = append(matched, sr)
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(matched, func(a, b storedReport) int { return q.Compare(a.Report, b.Report) })
	page := pageOf(matched, q.Page)
	out := make([]report.Report, len(page))
	for i, sr := range page {
		out[i] = sr.Report // without results: store keeps them apart, encoded
		out[i].Screenshots = slices.Clone(sr.Screenshots)
	}
	return out, len(matched), nil
}

// UpdateReport implements ports.ReportStore: a write that finishes the
// report queues its deliveries under the same lock.
func (s *ReportStore) UpdateReport(_ context.Context, userID, id int64, update func(*report.Report) error) (report.Report, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sr, found := s.reports[id]
	if !found || sr.UserID != userID {
		return report.Report{}, report.ErrNotFound
	}
	r := sr.load()
	if err := update(&r); err != nil {
		return report.Report{}, err
	}
	r.ID, r.UserID, r.Token, r.CreatedAt = sr.ID, sr.UserID, sr.Token, sr.CreatedAt
	if sr.Schedule == report.ScheduleOff && r.Schedule != report.ScheduleOff && s.scheduledLocked(userID) >= report.MaxScheduled {
		return report.Report{}, report.ErrTooManyScheduled
	}
	shots := takeScreenshots(&r, sr.Screenshots)
	next, err := store(r)
	if err != nil {
		return report.Report{}, err
	}
	out := next.load()
	ds, err := s.finishedLocked(sr.Report, out)
	if err != nil {
		return report.Report{}, err
	}
	s.reports[id] = next
	s.putScreenshotsLocked(id, shots)
	if len(ds) > 0 {
		s.queueDeliveries(ds)
	}
	return out, nil
}

// scheduledLocked counts the user's scheduled reports; s.mu is held.
func (s *ReportStore) scheduledLocked(userID int64) int {
	n := 0
	for _, sr := range s.reports {
		if sr.UserID == userID && sr.Schedule != report.ScheduleOff {
			n++
		}
	}
	return n
}

// DeleteReport implements ports.ReportStore; with a queue (NewJobs), the
// report's waiting analysis jobs go with it, and its screenshots.
func (s *ReportStore) DeleteReport(_ context.Context, userID, id int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sr, found := s.reports[id]
	if !found || sr.UserID != userID {
		return report.ErrNotFound
	}
	delete(s.reports, id)
	delete(s.tokens, sr.Token)
	delete(s.shots, id)
	if s.dropJobs != nil {
		s.dropJobs([]int64{id})
	}
	return nil
}

// Projects implements ports.ReportStore.
func (s *ReportStore) Projects(_ context.Context, userID int64, q report.ProjectQuery) ([]report.Project, int, error) {
	s.mu.RLock()
	byName := map[string][]report.Report{}
	for _, sr := range s.reports {
		if sr.UserID == userID {
			byName[sr.Project] = append(byName[sr.Project], sr.Report)
		}
	}
	s.mu.RUnlock()
	var matched []report.Project
	for _, reports := range byName {
		if p, _ := report.Summarize(reports); q.Matches(p) {
			matched = append(matched, p)
		}
	}
	slices.SortFunc(matched, q.Compare)
	return slices.Clone(pageOf(matched, q.Page)), len(matched), nil
}

// DeleteProject implements ports.ReportStore; with a queue (NewJobs), the
// reports' waiting analysis jobs go with them.
func (s *ReportStore) DeleteProject(_ context.Context, userID int64, name string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []int64
	for id, sr := range s.reports {
		if sr.UserID == userID && sr.Project == name {
			delete(s.reports, id)
			delete(s.tokens, sr.Token)
			delete(s.shots, id)
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return 0, report.ErrNotFound
	}
	if s.dropJobs != nil {
		s.dropJobs(ids)
	}
	return len(ids), nil
}

// pageOf returns the items of page p of items.
func pageOf[T any](items []T, p paging.Page) []T {
	from, to := p.Bounds(len(items))
	return items[from:to]
}

// Interface guard.
var _ ports.ReportStore = (*ReportStore)(nil)

// StartAnalysis implements ports.ReportStore, under the store's lock.
func (s *ReportStore) StartAnalysis(_ context.Context, userID, id int64, limit int) (report.Report, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sr, found := s.reports[id]
	if !found || sr.UserID != userID {
		return report.Report{}, report.ErrNotFound
	}
	if sr.Status.Finished() {
		return report.Report{}, report.ErrFinished
	}
	if limit > 0 {
		running := 0
		for _, other := range s.reports {
			if other.UserID == userID && other.ID != id && other.Status == report.StatusRunning {
				running++
			}
		}
		if running >= limit {
			return report.Report{}, report.ErrRunningLimit
		}
	}
	r := sr.load()
	r.Status, r.Attempts = report.StatusRunning, r.Attempts+1
	next, err := store(r)
	if err != nil {
		return report.Report{}, err
	}
	s.reports[id] = next
	return next.load(), nil
}

// finishClaim runs create under the store's lock when idem is nil or the
// user's unfinished record of idem.Key is held by idem.Claim, then
// finishes that record with idem.Outcome and the ids create returns, so a
// creation in another store and its key are stored together or not at
// all. report.ErrClaimLost when the claim is no longer held.
func (s *ReportStore) finishClaim(idem *report.Idempotency, create func() ([]int64, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if idem == nil {
		_, err := create()
		return err
	}
	k := idemKey{idem.UserID, idem.Key}
	held, found := s.keys[k]
	if !found || held.Done() || held.Claim != idem.Claim {
		return report.ErrClaimLost
	}
	ids, err := create()
	if err != nil {
		return err
	}
	held.Outcome, held.ReportIDs = idem.Outcome, ids
	s.keys[k] = held
	return nil
}

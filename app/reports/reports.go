// Package reports is the site-analysis use cases: the report lifecycle
// (create, read, list, update, delete, the public page's reads), projects,
// and the analyser that fetches and scores a page within per-user, per-site
// and per-address quotas.
package reports

import (
	"context"
	"time"

	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/site"
	"github.com/pinsight/pinsight/ports"
)

// PageAnalyser analyses one URL. *Analyser is the one the server wires;
// the interface lets tests of the report lifecycle choose their scores.
type PageAnalyser interface {
	// Analyse fetches rawURL and analyses it for user userID, within that
	// user's quotas. Errors: *QuotaError, ErrBusy, *ThrottledError,
	// *site.FetchError.
	Analyse(ctx context.Context, userID int64, rawURL string) (site.Analysis, error)
}

// Reports is the report lifecycle: create (analyse and store), read, list,
// update (privacy, password, re-analysis), delete, and the public page's
// reads. Every call but the public page's is scoped to one user.
type Reports struct {
	store    ports.ReportStore
	analyser PageAnalyser
	pw       accounts.PasswordHasher
	now      func() time.Time
}

// Option adjusts Reports at construction.
type Option func(*Reports)

// WithClock makes the use cases read the time from now instead of
// time.Now (tests, replays, deterministic comparisons).
func WithClock(now func() time.Time) Option { return func(rs *Reports) { rs.now = now } }

// New returns the report use cases over store, analysing with analyser and
// hashing share passwords with pw.
func New(store ports.ReportStore, analyser PageAnalyser, pw accounts.PasswordHasher, opts ...Option) *Reports {
	rs := &Reports{store: store, analyser: analyser, pw: pw, now: time.Now}
	for _, o := range opts {
		o(rs)
	}
	return rs
}

// NewReport is the input of Create. Nil fields were not sent.
type NewReport struct {
	URL      string
	Privacy  *int    // default site.DefaultPrivacy
	Password *string // required when Privacy is 2, refused otherwise
	// IdempotencyKey names the request ("" none): sent again with the same
	// input within site.IdempotencyKeyTTL, it creates nothing and answers
	// the report it created (see Create).
	IdempotencyKey string
}

// StatusCreated is the HTTP status a created report is answered with (201),
// recorded with its idempotency key for replays.
const StatusCreated = 201

// Created is the outcome of Create: the report and the status to answer.
type Created struct {
	site.Report
	// HTTPStatus is the status of the answer: StatusCreated, or for a
	// replay the first answer's.
	HTTPStatus int
	// Replayed tells that an earlier request with the same idempotency key
	// created the report; Report is its current state.
	Replayed bool
}

// ReportUpdate is the input of Update. Nil fields were not sent.
type ReportUpdate struct {
	Privacy  *int
	Password *string
	// Reanalyse runs the analysis of the report's URL again and replaces
	// its results, score, rating, project and generation time.
	Reanalyse bool
}

// Create validates in, analyses the URL and stores the report. With an
// idempotency key, see createOnce. Errors: *site.ValidationError,
// *site.FetchError, ErrBusy, accounts.ErrPasswordsBusy, *QuotaError,
// *ThrottledError, *InProgressError, site.ErrNotFound (a replay whose
// report was deleted since).
func (rs *Reports) Create(ctx context.Context, userID int64, in NewReport) (Created, error) {
	if err := site.CheckURL(in.URL); err != nil {
		return Created{}, err
	}
	privacy := site.DefaultPrivacy
	if in.Privacy != nil {
		p, err := site.ParsePrivacy(*in.Privacy)
		if err != nil {
			return Created{}, err
		}
		privacy = p
	}
	password, err := sharePassword(privacy, in.Password, false)
	if err != nil {
		return Created{}, err
	}
	if in.IdempotencyKey != "" {
		return rs.createOnce(ctx, userID, in, privacy, password)
	}
	r, err := rs.create(ctx, userID, in.URL, privacy, password, nil)
	return Created{Report: r, HTTPStatus: StatusCreated}, err
}

// create hashes the password, analyses url and stores the report; with
// idem, in the transaction that finishes idem.
func (rs *Reports) create(ctx context.Context, userID int64, url string, privacy site.Privacy, password string, idem *site.Idempotency) (site.Report, error) {
	hash, err := rs.hash(ctx, password)
	if err != nil {
		return site.Report{}, err
	}
	a, err := rs.analyser.Analyse(ctx, userID, url)
	if err != nil {
		return site.Report{}, err
	}
	now := rs.clock()
	r := site.Report{UserID: userID, Privacy: privacy, PasswordHash: hash, CreatedAt: now, UpdatedAt: now}
	if err := r.Apply(a, now); err != nil {
		return site.Report{}, err
	}
	if idem == nil {
		return rs.store.CreateReport(ctx, r)
	}
	done := *idem
	done.HTTPStatus = StatusCreated
	out, err := rs.store.CreateReports(ctx, []site.Report{r}, &done)
	if err != nil {
		return site.Report{}, err
	}
	return out[0], nil
}

// sharePassword checks a password sent with privacy and returns it ("" when
// none was sent). An empty password counts as not sent (HTML forms send
// empty fields); hasHash says a password is stored already, which then
// need not be sent again.
func sharePassword(privacy site.Privacy, password *string, hasHash bool) (string, error) {
	sent := password != nil && *password != ""
	switch {
	case privacy != site.Protected && sent:
		return "", site.Invalid("password", "is only accepted with privacy 2 (password)")
	case privacy != site.Protected:
		return "", nil
	case !sent && !hasHash:
		return "", site.Invalid("password", "is required with privacy 2 (password)")
	case !sent:
		return "", nil
	}
	if err := site.CheckReportPassword(*password); err != nil {
		return "", err
	}
	return *password, nil
}

// hash is the argon2id hash of a share password, "" for none.
func (rs *Reports) hash(ctx context.Context, password string) (string, error) {
	if password == "" {
		return "", nil
	}
	return rs.pw.Hash(ctx, password)
}

// Get returns the user's report id, or site.ErrNotFound.
func (rs *Reports) Get(ctx context.Context, userID, id int64) (site.Report, error) {
	return rs.store.Report(ctx, userID, id)
}

// List returns a page of the user's reports. Invalid parameters are a
// *site.ValidationError.
func (rs *Reports) List(ctx context.Context, userID int64, p site.ReportParams) (paging.List[site.Report], error) {
	q, err := site.NewReportQuery(p)
	if err != nil {
		return paging.List[site.Report]{}, err
	}
	items, total, err := rs.store.Reports(ctx, userID, q)
	return paging.List[site.Report]{Items: items, Total: total, Page: q.Page}, err
}

// Update changes the user's report id: privacy, password and, when asked,
// a fresh analysis, all in one write. Leaving privacy 2 keeps the stored
// password, so returning to 2 needs none. A re-analysis counts against the
// user's quotas like a new one. Errors: site.ErrNotFound,
// *site.ValidationError, *site.FetchError, ErrBusy, accounts.ErrPasswordsBusy,
// *QuotaError, *ThrottledError.
func (rs *Reports) Update(ctx context.Context, userID, id int64, in ReportUpdate) (site.Report, error) {
	cur, err := rs.store.Report(ctx, userID, id)
	if err != nil {
		return site.Report{}, err
	}
	privacy := cur.Privacy
	if in.Privacy != nil {
		if privacy, err = site.ParsePrivacy(*in.Privacy); err != nil {
			return site.Report{}, err
		}
	}
	password, err := sharePassword(privacy, in.Password, cur.HasPassword())
	if err != nil {
		return site.Report{}, err
	}
	hash, err := rs.hash(ctx, password)
	if err != nil {
		return site.Report{}, err
	}
	if in.Privacy == nil && hash == "" && !in.Reanalyse {
		return cur, nil // nothing to change
	}
	var a site.Analysis
	if in.Reanalyse {
		if a, err = rs.analyser.Analyse(ctx, userID, cur.URL); err != nil {
			return site.Report{}, err
		}
	}
	now := rs.clock()
	return rs.store.UpdateReport(ctx, userID, id, func(r *site.Report) error {
		r.Privacy, r.UpdatedAt = privacy, now
		if hash != "" {
			r.PasswordHash = hash
		}
		if !in.Reanalyse {
			return nil
		}
		url := r.URL // set on creation; the analysis may have been redirected elsewhere
		err := r.Apply(a, now)
		r.URL = url
		return err
	})
}

// Delete deletes the user's report id, or returns site.ErrNotFound.
func (rs *Reports) Delete(ctx context.Context, userID, id int64) error {
	return rs.store.DeleteReport(ctx, userID, id)
}

// Shared returns the report whose share token is token, for its public
// page: to anyone when its privacy is 0 or 2 (the caller asks for the
// password of a 2), and to its owner whatever its privacy (viewer is the
// user the request authenticated, 0 for none). Otherwise, and for anything
// that is not a share token (looked up no further), site.ErrNotFound.
func (rs *Reports) Shared(ctx context.Context, token string, viewer int64) (site.Report, error) {
	if !site.ValidShareToken(token) {
		return site.Report{}, site.ErrNotFound
	}
	r, err := rs.store.ReportByToken(ctx, token)
	if err != nil {
		return site.Report{}, err
	}
	if r.Privacy == site.Private && (viewer == 0 || r.UserID != viewer) {
		return site.Report{}, site.ErrNotFound
	}
	return r, nil
}

// CheckSharePassword reports whether password opens report r (privacy 2).
// Errors: accounts.ErrPasswordsBusy, the context's.
func (rs *Reports) CheckSharePassword(ctx context.Context, r site.Report, password string) (bool, error) {
	if r.Privacy != site.Protected || !r.HasPassword() || password == "" {
		return false, nil
	}
	return rs.pw.Verify(ctx, r.PasswordHash, password)
}

func (rs *Reports) clock() time.Time { return rs.now().UTC().Truncate(time.Second) }

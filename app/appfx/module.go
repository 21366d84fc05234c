// Package appfx provides the use cases of app/... to an fx graph. It is the
// only place the use cases meet fx: each is a plain constructor, usable
// without it.
package appfx

import (
	"context"
	"log/slog"
	"time"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/app/releases"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/app/reviews"
	"github.com/pinsight/pinsight/app/webhooks"
	"github.com/pinsight/pinsight/ports"
)

// Module provides every use case. fx builds only those something asks for,
// and a use case asked for whose dependencies are missing fails the start:
// nothing is provided as nil but the release history, which is optional.
// Readiness components are collected from the "readiness" value group,
// which adapters feed (AsComponent).
//
// What each needs: directory, a ports.PostalStore (and, for live review
// counts, a ports.ReviewStore); reviews, a ports.ReviewStore and a
// ports.RateLimiter (reviews.Config optional); geocode, the same and
// optionally a ports.BoundaryIndex; accounts, a ports.AccountStore and
// accounts.PasswordParams (accounts.PasswordLimits optional); reports and
// projects, a ports.ReportStore, the password hasher, a ports.PageFetcher
// and a ports.RateLimiter (reports.AnalyserConfig optional); the release
// history, a ports.ReleaseStore (optional: without one, none).
var Module = fx.Module("app",
	fx.Provide(fx.Annotate(health.New, fx.ParamTags(`group:"readiness"`))),
	fx.Provide(newPasswords, accounts.New),
	fx.Provide(newAnalyser, newReports, reports.NewProjects),
	fx.Provide(newDirectory, newGeocoder, newReviews, newReleases),
)

// releasesParams are what the release history needs: without a store
// there is none.
type releasesParams struct {
	fx.In
	Store ports.ReleaseStore `optional:"true"`
}

// newReleases provides the release history, nil when the graph has no
// ports.ReleaseStore.
func newReleases(p releasesParams) *releases.History {
	if p.Store == nil {
		return nil
	}
	return releases.New(p.Store)
}

// AsComponent tags a constructor of a health.Component for the readiness
// group.
func AsComponent(f any) any {
	return fx.Annotate(f, fx.ResultTags(`group:"readiness"`))
}

// analyserParams are what the analyser needs. Its quotas are kept by the
// graph's rate limiter.
type analyserParams struct {
	fx.In
	Fetcher ports.PageFetcher
	Config  reports.AnalyserConfig `optional:"true"`
	Limiter ports.RateLimiter
	// Renderer renders the analyses that ask for it (optional: without
	// one, render on is refused and auto never renders).
	Renderer ports.Renderer `optional:"true"`
}

// newAnalyser provides the real analyser over the PageFetcher.
func newAnalyser(p analyserParams) *reports.Analyser {
	cfg := p.Config
	cfg.Limiter, cfg.Renderer = p.Limiter, p.Renderer
	return reports.NewAnalyser(p.Fetcher, cfg)
}

// reportsParams are what the report use cases need; with a ports.Jobs
// queue (and its ports.JobSettings), analyses are durable jobs.
type reportsParams struct {
	fx.In
	Store     ports.ReportStore
	Analyser  *reports.Analyser
	Passwords accounts.PasswordHasher
	Jobs      ports.Jobs        `optional:"true"`
	Settings  ports.JobSettings `optional:"true"`
	Log       *slog.Logger      `optional:"true"`
	// Render holds the render mode of requests that name none.
	Render reports.RenderSettings `optional:"true"`
}

// newReports provides the report use cases with the real analyser: the
// only one ever wired.
func newReports(p reportsParams) *reports.Reports {
	var opts []reports.Option
	if p.Jobs != nil {
		opts = append(opts, reports.WithJobs(p.Jobs, p.Settings, p.Log))
	}
	if p.Render.Default != "" {
		opts = append(opts, reports.WithRenderDefault(p.Render.Default))
	}
	return reports.New(p.Store, p.Analyser, p.Passwords, opts...)
}

// Webhooks provides the webhook use cases (and sends their deliveries as
// the job queue runs them): it needs a ports.WebhookStore, a
// ports.WebhookQueue and a ports.WebhookPoster. The deliveries themselves
// are queued by the report store, in the write that finishes a report.
var Webhooks = fx.Provide(newWebhooks)

type webhooksParams struct {
	fx.In
	Store  ports.WebhookStore
	Queue  ports.WebhookQueue
	Poster ports.WebhookPoster
	Log    *slog.Logger `optional:"true"`
}

func newWebhooks(p webhooksParams) *webhooks.Webhooks {
	return webhooks.New(p.Store, p.Queue, p.Poster, p.Log)
}

// Crawls provides the crawl use cases (and runs crawl jobs as the queue
// hands them over): it needs a ports.CrawlStore, a ports.CrawlQueue, a
// ports.SiteFetcher, the password hasher and a ports.RateLimiter, which
// keeps the daily page quota (crawls.Config optional). Building them sets
// the queue's crawl worker, which JobRunner does before the queue starts.
var Crawls = fx.Provide(newCrawls)

type crawlsParams struct {
	fx.In
	Store     ports.CrawlStore
	Queue     ports.CrawlQueue
	Fetcher   ports.SiteFetcher
	Passwords accounts.PasswordHasher
	Limiter   ports.RateLimiter
	Config    crawls.Config `optional:"true"`
	Log       *slog.Logger  `optional:"true"`
	// Keys keeps Idempotency-Key records: the report store's.
	Keys ports.ReportStore `optional:"true"`
	// Renderer renders the crawls that ask for it (optional), whose pages
	// count against the analyser's daily quota of renders.
	Renderer ports.Renderer    `optional:"true"`
	Analyser *reports.Analyser `optional:"true"`
}

func newCrawls(p crawlsParams) *crawls.Crawls {
	cfg := p.Config
	cfg.Limiter = p.Limiter
	if cfg.Keys == nil && p.Keys != nil {
		cfg.Keys = p.Keys
	}
	if cfg.Log == nil {
		cfg.Log = p.Log
	}
	if cfg.Renderer == nil {
		cfg.Renderer = p.Renderer
	}
	if cfg.Renders == nil && p.Analyser != nil {
		cfg.Renders = p.Analyser
	}
	return crawls.New(p.Store, p.Queue, p.Fetcher, p.Passwords, cfg)
}

// JobRunner runs the queue's analyses in this process from start to stop
// (serve, and worker without HTTP), and adds the queue to readiness ("jobs":
// unavailable when its table cannot be read). It needs a ports.Jobs.
var JobRunner = fx.Options(
	fx.Invoke(runJobs),
	fx.Provide(AsComponent(jobsReadiness)),
)

// AnalysisObserver, when the graph holds one, is told of every run of a
// queued analysis: how long it waited past the time it was due, how long
// it ran, and what the worker returned (httpapifx.JobGauges records them
// on /metrics).
type AnalysisObserver func(job ports.AnalysisJob, waited, ran time.Duration, err error)

type runJobsParams struct {
	fx.In
	Lifecycle fx.Lifecycle
	Jobs      ports.Jobs
	Reports   *reports.Reports
	Observe   AnalysisObserver `optional:"true"`
	// Webhooks, when the graph has them, are built before the queue starts:
	// building them sets the queue's delivery worker, so this process
	// sends the deliveries it runs (a worker process serves no route that
	// would build them otherwise).
	Webhooks *webhooks.Webhooks `optional:"true"`
	// Crawls, when the graph has them, are built before the queue starts
	// for the same reason: building them sets the crawl worker.
	Crawls *crawls.Crawls `optional:"true"`
}

func runJobs(p runJobsParams) {
	work := ports.AnalysisWorker(p.Reports.RunAnalysis)
	if p.Observe != nil {
		work = observed(work, p.Observe)
	}
	p.Lifecycle.Append(fx.Hook{
		OnStart: func(ctx context.Context) error { return p.Jobs.Start(ctx, work) },
		OnStop:  p.Jobs.Stop,
	})
}

// observed is work telling observe of each run.
func observed(work ports.AnalysisWorker, observe AnalysisObserver) ports.AnalysisWorker {
	return func(ctx context.Context, job ports.AnalysisJob) error {
		start := time.Now()
		var waited time.Duration
		if !job.DueAt.IsZero() {
			waited = max(start.Sub(job.DueAt), 0)
		}
		err := work(ctx, job)
		observe(job, waited, time.Since(start), err)
		return err
	}
}

func jobsReadiness(jobs ports.Jobs) health.Component {
	return health.Component{Name: "jobs", Check: func(ctx context.Context) error {
		_, err := jobs.Stats(ctx)
		return err
	}}
}

// passwordParams are the costs and limits of password hashing.
type passwordParams struct {
	fx.In
	Costs  accounts.PasswordParams
	Limits accounts.PasswordLimits `optional:"true"`
}

// newPasswords provides the one password hasher of the process, so its
// limit on concurrent argon2id runs covers accounts and reports together.
func newPasswords(p passwordParams) (*accounts.Passwords, accounts.PasswordHasher) {
	pw := accounts.NewPasswords(p.Costs, p.Limits)
	return pw, pw
}

// geocoderParams are what the geocoder needs: boundaries are optional
// (without them offices are chosen by distance alone).
type geocoderParams struct {
	fx.In
	Store  ports.PostalStore
	Bounds ports.BoundaryIndex `optional:"true"`
}

func newGeocoder(p geocoderParams) *geocode.Geocoder { return geocode.New(p.Store, p.Bounds) }

// directoryParams are what the directory needs: without a review store
// every office's counts are zero.
type directoryParams struct {
	fx.In
	Lifecycle fx.Lifecycle
	Store     ports.PostalStore
	Reviews   ports.ReviewStore `optional:"true"`
}

// newDirectory provides the directory; with reviews it loads every count
// at start (a failure fails the start), so no postal answer reads them.
func newDirectory(p directoryParams) *directory.Directory {
	if p.Reviews == nil {
		return directory.New(p.Store)
	}
	dir := directory.NewWithReviews(p.Store, p.Reviews)
	p.Lifecycle.Append(fx.Hook{OnStart: dir.LoadCounts})
	return dir
}

// reviewsParams are what the review use case needs; its writes are limited
// by the graph's rate limiter.
type reviewsParams struct {
	fx.In
	Directory *directory.Directory
	Store     ports.ReviewStore
	Limiter   ports.RateLimiter
	Config    reviews.Config `optional:"true"`
}

func newReviews(p reviewsParams) *reviews.Reviews {
	cfg := p.Config
	cfg.Limiter = p.Limiter
	return reviews.New(p.Directory, p.Store, cfg)
}

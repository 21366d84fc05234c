// Package appfx provides the use cases of app/... to an fx graph. It is the
// only place the use cases meet fx: each is a plain constructor, usable
// without it.
package appfx

import (
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/app/reviews"
	"github.com/pinsight/pinsight/ports"
)

// Module provides every use case. fx builds only those something asks for,
// and a use case asked for whose dependencies are missing fails the start:
// nothing is provided as nil. Readiness components are collected from the
// "readiness" value group, which adapters feed (AsComponent).
//
// What each needs: directory, a ports.PostalStore (and, for live review
// counts, a ports.ReviewStore); reviews, a ports.ReviewStore and a
// ports.RateLimiter (reviews.Config optional); geocode, the same and
// optionally a ports.BoundaryIndex; accounts, a ports.AccountStore and
// accounts.PasswordParams (accounts.PasswordLimits optional); reports and
// projects, a ports.ReportStore, the password hasher, a ports.PageFetcher
// and a ports.RateLimiter (reports.AnalyserConfig optional).
var Module = fx.Module("app",
	fx.Provide(fx.Annotate(health.New, fx.ParamTags(`group:"readiness"`))),
	fx.Provide(newPasswords, accounts.New),
	fx.Provide(newAnalyser, newReports, reports.NewProjects),
	fx.Provide(newDirectory, newGeocoder, newReviews),
)

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
}

// newAnalyser provides the real analyser over the PageFetcher.
func newAnalyser(p analyserParams) *reports.Analyser {
	cfg := p.Config
	cfg.Limiter = p.Limiter
	return reports.NewAnalyser(p.Fetcher, cfg)
}

// newReports provides the report use cases with the real analyser: the
// only one ever wired.
func newReports(store ports.ReportStore, a *reports.Analyser, pw accounts.PasswordHasher) *reports.Reports {
	return reports.New(store, a, pw)
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
	Store   ports.PostalStore
	Reviews ports.ReviewStore `optional:"true"`
}

func newDirectory(p directoryParams) *directory.Directory {
	if p.Reviews == nil {
		return directory.New(p.Store)
	}
	return directory.NewWithReviews(p.Store, p.Reviews)
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

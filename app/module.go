package app

import (
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/ports"
)

// Module provides the use cases. Readiness components are collected from the
// "readiness" value group, which adapters feed.
var Module = fx.Module("app",
	fx.Provide(fx.Annotate(NewHealth, fx.ParamTags(`group:"readiness"`))),
	fx.Provide(newPasswords, NewAccounts),
	fx.Provide(newAnalyserOrNil, newSiteAnalysis),
	fx.Provide(NewPostal),
)

// AsComponent tags a constructor of a Component for the readiness group.
func AsComponent(f any) any {
	return fx.Annotate(f, fx.ResultTags(`group:"readiness"`))
}

// analyserParams are what the analyser needs; without a fetcher there is
// none. Its quotas are kept by the graph's rate limiter.
type analyserParams struct {
	fx.In
	Fetcher ports.PageFetcher `optional:"true"`
	Config  AnalyserConfig    `optional:"true"`
	Limiter ports.RateLimiter
}

// newAnalyserOrNil provides the real Analyser over the PageFetcher, or nil
// when no fetcher is wired.
func newAnalyserOrNil(p analyserParams) *Analyser {
	if p.Fetcher == nil {
		return nil
	}
	cfg := p.Config
	cfg.Limiter = p.Limiter
	return NewAnalyser(p.Fetcher, cfg)
}

// passwordParams are the costs and limits of password hashing.
type passwordParams struct {
	fx.In
	Costs  PasswordParams
	Limits PasswordLimits `optional:"true"`
}

// newPasswords provides the one password hasher of the process, so its
// limit on concurrent argon2id runs covers accounts and reports together.
func newPasswords(p passwordParams) (*Passwords, PasswordHasher) {
	pw := NewPasswords(p.Costs, p.Limits)
	return pw, pw
}

// siteParams are what the site-analysis use cases need.
type siteParams struct {
	fx.In
	Store     ports.ReportStore `optional:"true"`
	Analyser  *Analyser
	Passwords PasswordHasher
}

type siteResult struct {
	fx.Out
	Reports  *Reports
	Projects *Projects
}

// newSiteAnalysis provides the report and project use cases; without a
// report store, or without an analyser, they are nil and their routes are
// not registered. Only the real Analyser is ever wired.
func newSiteAnalysis(p siteParams) siteResult {
	if p.Store == nil {
		return siteResult{}
	}
	out := siteResult{Projects: NewProjects(p.Store)}
	if p.Analyser != nil {
		out.Reports = NewReports(p.Store, p.Analyser, p.Passwords)
	}
	return out
}

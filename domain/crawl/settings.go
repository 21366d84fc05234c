package crawl

import (
	"fmt"
	"strings"
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/robots"
	"github.com/pinsight/pinsight/domain/webpage"
)

// Limits and defaults of a crawl's settings.
const (
	DefaultMaxPages    = 500
	MaxMaxPages        = 10_000
	DefaultMaxDepth    = 10
	MaxMaxDepth        = 100
	DefaultConcurrency = 2
	MaxConcurrency     = 8
	MaxDelay           = 10 * time.Second
	MaxFilters         = 20  // include or exclude patterns, each
	MaxFilterLen       = 256 // bytes of one pattern
	// MaxRedirects is how many redirects a crawl follows from one URL;
	// past it the URL is a redirect loop.
	MaxRedirects = 10
)

// Params are the settings of a crawl as sent. Nil pointers were not sent
// and take their defaults.
type Params struct {
	URL         string
	MaxPages    *int // 1 to MaxMaxPages; DefaultMaxPages
	MaxDepth    *int // 0 (the start page only) to MaxMaxDepth; DefaultMaxDepth
	Concurrency *int // 1 to MaxConcurrency; DefaultConcurrency
	DelayMS     *int // 0 to MaxDelay in milliseconds; 0
	Include     []string
	Exclude     []string
	Subdomains  bool
	Headers     map[string]string // at most MaxHeaders; see CheckHeader
	Privacy     *int              // as reports: report.ParsePrivacy; report.DefaultPrivacy
	Password    *string           // as reports: report.SharePassword
	Schedule    string            // as reports: report.ParseSchedule
	Render      *string           // as reports: pagecheck.ParseRenderMode; off
}

// Settings are a crawl's validated settings.
type Settings struct {
	URL         string // the start URL, normalised (Normalize)
	MaxPages    int
	MaxDepth    int
	Concurrency int
	Delay       time.Duration // the pause between two requests to the site, besides robots.txt's Crawl-delay
	// Include and Exclude are path patterns (see Filter), with escapes in
	// normal form.
	Include, Exclude []string
	Subdomains       bool
	// Headers are sent with every request to the start URL's host (and
	// to no other: Scope.SameHost), sorted by name; they are kept only
	// while the crawl runs and never shown back.
	Headers  []Header
	Privacy  report.Privacy
	Password string // the share password as sent, "" for none: hash it, never store it
	Schedule report.Schedule
	// Render is whether the crawl renders its HTML pages in a browser:
	// off, on (every one) or auto (those pagecheck.NeedsRendering picks).
	// "" (a crawl stored before rendering) reads as off.
	Render pagecheck.RenderMode
}

// NewSettings validates p, reporting every invalid field at once in a
// *report.ValidationError (fields url, max_pages, max_depth, concurrency,
// delay_ms, include, exclude, headers, privacy, password, schedule,
// render).
func NewSettings(p Params) (Settings, error) {
	errs := report.Problems{}
	s := Settings{Subdomains: p.Subdomains, Privacy: report.DefaultPrivacy}
	if err := report.CheckURL(p.URL); err != nil {
		errs.AddErr("url", err)
	} else if u, err := Normalize(p.URL); err != nil {
		errs.Add("url", "cannot be crawled: it must be an http or https URL without user name or password, with a host name")
	} else {
		s.URL = u
	}
	s.MaxPages = intIn(p.MaxPages, DefaultMaxPages, 1, MaxMaxPages, "max_pages", errs)
	s.MaxDepth = intIn(p.MaxDepth, DefaultMaxDepth, 0, MaxMaxDepth, "max_depth", errs)
	s.Concurrency = intIn(p.Concurrency, DefaultConcurrency, 1, MaxConcurrency, "concurrency", errs)
	s.Delay = time.Duration(intIn(p.DelayMS, 0, 0, int(MaxDelay/time.Millisecond), "delay_ms", errs)) * time.Millisecond
	s.Include = filters(p.Include, "include", errs)
	s.Exclude = filters(p.Exclude, "exclude", errs)
	s.Headers = headers(p.Headers, errs)
	if p.Privacy != nil {
		pr, err := report.ParsePrivacy(*p.Privacy)
		errs.AddErr("privacy", err)
		s.Privacy = pr
	}
	pw, err := report.SharePassword(s.Privacy, p.Password, false)
	errs.AddErr("password", err)
	s.Password = pw
	sch, err := report.ParseSchedule(p.Schedule)
	errs.AddErr("schedule", err)
	s.Schedule = sch
	s.Render = pagecheck.RenderOff
	if p.Render != nil {
		m, ok := pagecheck.ParseRenderMode(*p.Render)
		if !ok {
			errs.Add("render", "must be "+pagecheck.RenderModesText)
		}
		s.Render = m
	}
	if sch != report.ScheduleOff && len(s.Headers) > 0 {
		errs.Add("schedule", "cannot be combined with headers: request headers are forgotten when a crawl ends, so its scheduled runs could not send them")
	}
	if err := errs.Err(); err != nil {
		return Settings{}, err
	}
	return s, nil
}

// Renders reports whether the crawl renders pages (render on or auto).
func (s Settings) Renders() bool {
	return s.Render == pagecheck.RenderOn || s.Render == pagecheck.RenderAuto
}

// intIn reads an optional integer within [lo, hi].
func intIn(v *int, def, lo, hi int, field string, errs report.Problems) int {
	if v == nil {
		return def
	}
	if *v < lo || *v > hi {
		errs.Add(field, fmt.Sprintf("must be from %d to %d", lo, hi))
		return def
	}
	return *v
}

// filters validates include or exclude patterns.
func filters(patterns []string, field string, errs report.Problems) []string {
	if len(patterns) > MaxFilters {
		errs.Add(field, fmt.Sprintf("must have at most %d patterns", MaxFilters))
		return nil
	}
	out := make([]string, 0, len(patterns))
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		switch {
		case !report.IsText(p):
			errs.Add(field, "patterns must be UTF-8 text without NUL characters")
		case len(p) > MaxFilterLen:
			errs.Add(field, fmt.Sprintf("patterns must be at most %d bytes", MaxFilterLen))
		case robots.PatternProblem(p) != "":
			errs.Add(field, fmt.Sprintf("pattern %q must start with \"/\" or \"*\", with \"$\" only at its end", p))
		default:
			out = append(out, webpage.NormalizeEscapes(p))
		}
	}
	return out
}

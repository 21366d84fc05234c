package report

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webpage"
)

// Privacy says who may view a report's public page.
type Privacy int

// Privacy modes (the seed's 0, 1, 2).
const (
	Public    Privacy = 0 // anyone with the link
	Private   Privacy = 1 // the owner only (the default)
	Protected Privacy = 2 // anyone with the link and the password
)

// DefaultPrivacy is the privacy of a report created without one.
const DefaultPrivacy = Private

// Limits of report input.
const (
	MaxURLLen = 2048
)

// ParsePrivacy accepts 0, 1 or 2.
func ParsePrivacy(n int) (Privacy, error) {
	if p := Privacy(n); p >= Public && p <= Protected {
		return p, nil
	}
	return 0, Invalid("privacy", "must be 0 (public), 1 (private) or 2 (password)")
}

// Report is the stored outcome of analysing one URL for one user.
type Report struct {
	ID      int64 // increases with creation time
	UserID  int64
	Token   string           // the public share token (NewShareToken), set on creation, never changed
	URL     string           // the analysed URL: the final one, after redirects
	Project string           // ProjectName(URL)
	Score   int              // 0-100, truncated
	Rating  pagecheck.Rating // RatingFor(Score)
	Results pagecheck.Results
	// Rendering is what the browser showed of the page (raw versus
	// rendered, what it loaded, lab timings) when the analysis rendered
	// it, or why it did not when it might have; nil for an analysis that
	// never meant to render.
	Rendering    *pagecheck.Rendering
	Privacy      Privacy
	PasswordHash string // argon2id PHC string; kept when privacy leaves Protected
	Status       Status // "" is stored as StatusGenerated
	Attempts     int    // analyses of the current request started so far
	Failure      string // why the last analysis failed, when Status is StatusFailed
	Schedule     Schedule
	NextRunAt    time.Time // of the next scheduled analysis; zero without a schedule
	// Render is how the report's analyses render the page (asked on
	// creation, changed by a re-analysis that names one); "" is off.
	Render pagecheck.RenderMode
	// Screenshot is which screenshots the report's rendered analyses keep
	// (asked on creation, changed by a re-analysis that names one); ""
	// is ScreenshotViewport.
	Screenshot ScreenshotMode
	// Screenshots are the kinds of screenshot stored with the report's
	// current analysis, viewport first (none when it did not render).
	// Stores set it from the images they stored (NewScreenshots); the
	// images themselves are read one at a time, never with a report
	// (ports.ReportStore.Screenshot).
	Screenshots []ScreenshotKind
	// NewScreenshots, when not nil, replaces the stored screenshots on
	// the write that carries it (CreateReport(s), UpdateReport): the
	// store keeps its images (bounded, Screenshots.Bounded) and sets
	// Screenshots to their kinds; empty, it deletes them. Apply sets it
	// to none, ApplyScreenshots to a render's. Reads never fill it.
	NewScreenshots *Screenshots
	GeneratedAt    time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// HasPassword reports whether a share password is stored.
func (r Report) HasPassword() bool { return r.PasswordHash != "" }

// Apply replaces the analysis part of the report (URL, project, score,
// rating, results, rendering), sets GeneratedAt to at and the status to generated.
// The write that stores it deletes the report's screenshots (an analysis
// replaces them: ApplyScreenshots gives those of a render).
// On a finished report (a re-analysis stored at once) GeneratedAt moves
// at least a second past the previous one, so each analysis has its own
// time, by which Finishes tells a new analysis from the same one.
func (r *Report) Apply(a pagecheck.Analysis, at time.Time) error {
	project, err := ProjectName(a.URL)
	if err != nil {
		return err
	}
	if r.Status.Finished() && !at.After(r.GeneratedAt) {
		at = r.GeneratedAt.Add(time.Second)
	}
	r.URL, r.Project, r.Score, r.Rating, r.Results, r.GeneratedAt = a.URL, project, a.Score, pagecheck.RatingFor(a.Score), a.Results, at
	r.Rendering = a.Rendering
	r.Status, r.Failure = StatusGenerated, ""
	r.NewScreenshots = &Screenshots{}
	return nil
}

// CheckURL validates a URL to analyse: absolute http or https with a host
// that is not a non-canonical number (NumericHostReason), at most MaxURLLen
// characters.
func CheckURL(raw string) error {
	if strings.TrimSpace(raw) == "" {
		return Invalid("url", "is required")
	}
	if len(raw) > MaxURLLen {
		return Invalid("url", fmt.Sprintf("must be at most %d characters", MaxURLLen))
	}
	u, err := url.Parse(raw)
	if err != nil {
		return Invalid("url", "is not a valid URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return Invalid("url", "must start with http:// or https://")
	}
	if u.Hostname() == "" {
		return Invalid("url", "must name a host")
	}
	if reason := webpage.NumericHostReason(u.Hostname()); reason != "" {
		return Invalid("url", reason)
	}
	return nil
}

// CheckPassword applies the password rules of accounts
// (account.PasswordProblem: at least 8 characters once trimmed, no control
// characters, not a common password) to a share password.
func CheckPassword(p string) error {
	if msg := account.PasswordProblem(p); msg != "" {
		return Invalid("password", msg)
	}
	return nil
}

// ProjectName is the project of a final URL: its host name, lower-cased,
// with a leading "www." removed (sub.example.com and example.com differ).
func ProjectName(finalURL string) (string, error) {
	u, err := url.Parse(finalURL)
	if err != nil || u.Hostname() == "" {
		return "", Invalid("url", "has no host name")
	}
	return NormalizeProject(u.Hostname()), nil
}

// NormalizeProject lower-cases a project name and removes a leading "www.",
// so a filter matches however the host was written.
func NormalizeProject(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	return strings.TrimPrefix(name, "www.")
}

// URLKey is the form of a URL that search matches: lower-cased, without
// the scheme and without a leading "www.".
func URLKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, scheme := range []string{"https://", "http://"} {
		s = strings.TrimPrefix(s, scheme)
	}
	return strings.TrimPrefix(s, "www.")
}

package sharepage

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"time"

	"github.com/pinsight/pinsight/domain/report"
)

// Cache-Control values of screenshots. A public report's may be kept by
// any cache for a minute (its privacy can change, and a re-analysis
// replaces it); any other only by the viewer's browser, asking again each
// time (its ETag answers 304 when unchanged).
const (
	PublicImageCache  = "public, max-age=60"
	PrivateImageCache = "private, no-cache"
)

// imageCSP forbids an image answer from running or loading anything,
// should it ever be opened as a document.
const imageCSP = "default-src 'none'; frame-ancestors 'none'; sandbox"

// WriteImage answers img, a JPEG screenshot, with cacheControl and an
// ETag (a digest of the bytes), answering conditional and range requests
// as http.ServeContent does.
func WriteImage(w http.ResponseWriter, r *http.Request, img []byte, cacheControl string) {
	sum := sha256.Sum256(img)
	h := w.Header()
	h.Set("Content-Type", "image/jpeg")
	h.Set("ETag", `"`+base64.RawURLEncoding.EncodeToString(sum[:18])+`"`)
	h.Set("Cache-Control", cacheControl)
	h.Set("Content-Security-Policy", imageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(img))
}

// ScreenshotSuffix ends the path of a report page's screenshot,
// /r/{token}/screenshot?kind=viewport|full.
const ScreenshotSuffix = "/screenshot"

// screenshot answers the screenshot of a shared report to whoever may see
// its page (allowed, the page's own check), the not-found page otherwise.
// A password-protected report's needs the cookie a correct password left:
// the password form is the page's.
func (p *sharePage) screenshot(w http.ResponseWriter, r *http.Request) {
	viewer, _ := p.viewer(r)
	s, err := p.lookup(r.Context(), r.PathValue("token"), viewer)
	switch {
	case errors.Is(err, errNotShared):
		p.notFound(w, r, http.StatusNotFound, "")
		return
	case err != nil:
		p.fail(w, r, err)
		return
	case s.report == nil || !p.allowed(r, s, viewer):
		p.notFound(w, r, http.StatusNotFound, "")
		return
	}
	img, err := p.reports.SharedScreenshot(r.Context(), *s.report, r.URL.Query().Get("kind"))
	switch {
	case errors.Is(err, report.ErrNotFound), errors.Is(err, report.ErrNoScreenshot), errors.As(err, new(*report.ValidationError)):
		p.notFound(w, r, http.StatusNotFound, "")
		return
	case err != nil:
		p.fail(w, r, err)
		return
	}
	cache := PrivateImageCache
	if s.Privacy == report.Public {
		cache = PublicImageCache
	}
	WriteImage(w, r, img, cache)
}

// screenshotView is what the page shows of a report's screenshots.
type screenshotView struct {
	Viewport, Full string // the images' paths; "" when none
}

// screenshotsOf is the paths of rep's screenshots under the page's path.
func (p *sharePage) screenshotsOf(rep report.Report) screenshotView {
	var v screenshotView
	base := p.opts.BasePath + Path(rep.Token) + ScreenshotSuffix + "?kind="
	if rep.HasScreenshot(report.ShotViewport) {
		v.Viewport = base + string(report.ShotViewport)
	}
	if rep.HasScreenshot(report.ShotFull) {
		v.Full = base + string(report.ShotFull)
	}
	return v
}

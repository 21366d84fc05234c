// Package sharepage serves the public HTML page of a site-analysis report
// or of a crawl's summary, GET /r/{token}: public ones to anyone, password-protected ones after
// a password form (remembered in a signed cookie), private ones to their
// owner only: a Bearer key, or the owner's sign-in on the page (signin.go).
package sharepage

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// Options configures the public report page, GET /r/{token}.
type Options struct {
	// CookieKey signs the cookie that remembers an entered password. Nil:
	// a random key drawn at start (cookies then end with the process).
	CookieKey []byte
	// CookieTTL is how long an entered password is remembered (default 24 h).
	CookieTTL time.Duration
	// OwnerTTL is how long an owner's sign-in on the report pages lasts
	// (default DefaultOwnerTTL).
	OwnerTTL time.Duration
	// Limiter throttles password attempts per client; nil: not throttled
	// (the fx module always provides one).
	Limiter ports.RateLimiter
	// Attempts is the password quota per client (default 10 a minute).
	Attempts ratelimit.Limit
	// TrustedProxies may set X-Forwarded-For (the client is then the
	// address they name) and X-Forwarded-Proto (https: the cookies are
	// Secure).
	TrustedProxies []netip.Prefix
	// BasePath is the path the host serves the API under ("" at the root):
	// redirects and cookie paths start with it. httpapi.Register sets it
	// from the API's OpenAPI servers.
	BasePath string
}

// bodyReadTimeout bounds the reading of the page's password form, as huma
// bounds the bodies of operations (its default): a slow body cannot hold a
// concurrency slot for longer.
const bodyReadTimeout = 5 * time.Second

// DefaultAttempts is the default password quota per client.
var DefaultAttempts = ratelimit.Limit{Requests: 10, Window: time.Minute}

// sharePage serves the public report page.
type sharePage struct {
	reports  *reports.Reports
	crawls   *crawls.Crawls // nil: the pages show reports only
	accounts *accounts.Accounts
	opts     Options
}

// Register adds the page's GET (view), POST (password form), GET
// .../screenshot (a report's screenshots) and the owner's POST
// .../signin and .../signout to api, outside the OpenAPI document. A token opens a report, else a crawl of cs (nil: none).
func Register(api huma.API, rs *reports.Reports, cs *crawls.Crawls, acc *accounts.Accounts, opts Options) {
	if len(opts.CookieKey) == 0 {
		opts.CookieKey = make([]byte, 32)
		_, _ = rand.Read(opts.CookieKey)
	}
	if opts.CookieTTL <= 0 {
		opts.CookieTTL = 24 * time.Hour
	}
	if opts.OwnerTTL <= 0 {
		opts.OwnerTTL = DefaultOwnerTTL
	}
	if !opts.Attempts.Enabled() {
		opts.Attempts = DefaultAttempts
	}
	p := &sharePage{reports: rs, crawls: cs, accounts: acc, opts: opts}
	for _, route := range []struct {
		method, path string
		h            http.HandlerFunc
	}{
		{http.MethodGet, "", p.view}, {http.MethodPost, "", p.unlock},
		{http.MethodPost, middleware.SignInSuffix, p.signIn}, {http.MethodPost, "/signout", p.signOut},
		{http.MethodGet, ScreenshotSuffix, p.screenshot},
	} {
		h := route.h
		api.Adapter().Handle(&huma.Operation{Method: route.method, Path: Prefix + "{token}" + route.path}, func(ctx huma.Context) {
			r, w := humago.Unwrap(ctx)
			h(w, r)
		})
	}
}

// Prefix starts the path of every report page: /r/{token}, the token
// being the report's random share token (report ids are never used there,
// so pages cannot be walked).
const Prefix = middleware.SharePrefix

// Path is the path of the report page of the share token.
func Path(token string) string { return Prefix + token }

// view shows a report or crawl: privacy 0 to anyone, 2 with the password
// (or the cookie a correct one left), 1 only to its owner (a Bearer key or
// the owner's sign-in cookie); the owner sees it whatever its privacy.
// Anything else is the one not-found page, so a private report looks like
// a missing one.
func (p *sharePage) view(w http.ResponseWriter, r *http.Request) {
	viewer, signedIn := p.viewer(r)
	s, err := p.lookup(r.Context(), r.PathValue("token"), viewer)
	switch {
	case errors.Is(err, errNotShared):
		p.notFound(w, r, http.StatusNotFound, "")
	case err != nil:
		p.fail(w, r, err)
	case s.UserID == viewer && signedIn:
		p.renderShared(r.Context(), w, r, s, p.csrfToken(w, r))
	case p.allowed(r, s, viewer):
		p.renderShared(r.Context(), w, r, s, "")
	default:
		p.render(w, r, http.StatusOK, "password", pageData{Kind: s.kind(), Title: "Protected " + s.kind(), Token: s.Token, Action: p.opts.BasePath + Path(s.Token)})
	}
}

// allowed reports whether the viewer (lookup found s for them) may see s:
// anyone a public one, its owner (a Bearer key or the owner's sign-in)
// any, and a password-protected one whoever holds the cookie a correct
// password left. The page and its screenshots ask the same.
func (p *sharePage) allowed(r *http.Request, s shared, viewer int64) bool {
	return s.Privacy == report.Public || s.UserID == viewer || p.validCookie(r, s)
}

// viewer is the user whose key the request carries, else the one its
// sign-in cookie names (signedIn), 0 for none or an invalid one.
func (p *sharePage) viewer(r *http.Request) (id int64, signedIn bool) {
	key := middleware.BearerToken(r.Header.Get("Authorization"))
	if key == "" {
		id = p.owner(r)
		return id, id != 0
	}
	who, err := middleware.Authenticate(r.Context(), p.accounts.Authenticate, key)
	if err != nil {
		return 0, false
	}
	return who.User.ID, false
}

// unlock checks a password sent by the form; a correct one is remembered
// in a signed HttpOnly cookie and the browser is sent back to the page.
func (p *sharePage) unlock(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	if !report.ValidShareToken(token) {
		p.notFound(w, r, http.StatusNotFound, "")
		return
	}
	if wait, limited := p.throttled(r); limited {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
		p.render(w, r, http.StatusTooManyRequests, "password", pageData{Title: "Protected page", Token: token, Action: p.opts.BasePath + Path(token),
			Error: "Too many attempts: try again in " + strconv.Itoa(int(wait.Seconds())+1) + " seconds."})
		return
	}
	rep, err := p.lookup(r.Context(), token, 0)
	switch {
	case errors.Is(err, errNotShared):
		p.notFound(w, r, http.StatusNotFound, "")
		return
	case err != nil:
		p.fail(w, r, err)
		return
	case rep.Privacy != report.Protected:
		http.Redirect(w, r, p.opts.BasePath+Path(token), http.StatusSeeOther)
		return
	}
	match := false
	if err = p.readForm(w, r); err == nil {
		match, err = p.checkPassword(r.Context(), rep, r.PostForm.Get("password"))
		if errors.Is(err, accounts.ErrPasswordsBusy) {
			w.Header().Set("Retry-After", passwordRetryAfter)
			p.render(w, r, http.StatusServiceUnavailable, "password", pageData{Kind: rep.kind(), Title: "Protected " + rep.kind(), Token: token, Action: p.opts.BasePath + Path(token),
				Error: "Too many password checks at the moment: try again in a few seconds."})
			return
		}
		if err != nil {
			p.fail(w, r, err)
			return
		}
	}
	if !match {
		p.render(w, r, http.StatusForbidden, "password", pageData{Kind: rep.kind(), Title: "Protected " + rep.kind(), Token: token, Action: p.opts.BasePath + Path(token), Error: "Wrong password."})
		return
	}
	http.SetCookie(w, p.cookie(r, rep))
	http.Redirect(w, r, p.opts.BasePath+Path(token), http.StatusSeeOther)
}

// throttled takes one password attempt of the client from its quota.
func (p *sharePage) throttled(r *http.Request) (time.Duration, bool) {
	if p.opts.Limiter == nil {
		return 0, false
	}
	d, err := p.opts.Limiter.Take(r.Context(), "share:"+middleware.ClientIP(r, p.opts.TrustedProxies), p.opts.Attempts)
	if err != nil { // fail open, as the API's limiter does
		return 0, false
	}
	return d.RetryAfter, !d.Allowed
}

// fail answers a store failure without revealing it.
func (p *sharePage) fail(w http.ResponseWriter, r *http.Request, err error) {
	status := http.StatusInternalServerError
	if errors.Is(err, ports.ErrUnavailable) {
		status = http.StatusServiceUnavailable
		w.Header().Set("Retry-After", storageRetryAfter)
	}
	middleware.Logger(r.Context()).ErrorContext(r.Context(), "report page failed", "path", r.URL.Path, "err", err)
	p.render(w, r, status, "notfound", pageData{Title: http.StatusText(status)})
}

// shareCookie names the cookie that remembers an entered password; its
// path is the report page's, so each report has its own.
const shareCookie = "pinsight_share"

// cookie remembers a correct password of rep until the TTL passes. It is
// bound to the share token and to the stored hash, so it opens no other
// report or crawl and a new password invalidates it.
func (p *sharePage) cookie(r *http.Request, rep shared) *http.Cookie {
	exp := time.Now().Add(p.opts.CookieTTL).Unix()
	return &http.Cookie{
		Name: shareCookie, Value: strconv.FormatInt(exp, 10) + "." + p.sign(rep, exp),
		Path: p.opts.BasePath + Path(rep.Token), MaxAge: int(p.opts.CookieTTL.Seconds()),
		HttpOnly: true, Secure: p.overTLS(r), SameSite: http.SameSiteLaxMode,
	}
}

func (p *sharePage) sign(rep shared, exp int64) string {
	m := hmac.New(sha256.New, p.opts.CookieKey)
	m.Write([]byte(rep.Token + "|" + strconv.FormatInt(exp, 10) + "|" + rep.PasswordHash))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func (p *sharePage) validCookie(r *http.Request, rep shared) bool {
	if rep.Privacy != report.Protected || rep.PasswordHash == "" {
		return false
	}
	c, err := r.Cookie(shareCookie)
	if err != nil {
		return false
	}
	expText, mac, found := strings.Cut(c.Value, ".")
	exp, err := strconv.ParseInt(expText, 10, 64)
	if !found || err != nil || time.Now().Unix() > exp {
		return false
	}
	return hmac.Equal([]byte(mac), []byte(p.sign(rep, exp)))
}

// WithServer fills what o leaves unset from the server: the API's rate
// limiter and trusted proxies.
func (o Options) WithServer(limiter ports.RateLimiter, trusted []netip.Prefix) Options {
	if o.Limiter == nil {
		o.Limiter = limiter
	}
	if o.TrustedProxies == nil {
		o.TrustedProxies = trusted
	}
	return o
}

// storageRetryAfter is the Retry-After (seconds) of a store that is
// unavailable: a database down, stalled or past its statement timeout.
var storageRetryAfter = middleware.RetryAfter(ports.UnavailableRetryAfter)

// passwordRetryAfter is the Retry-After of ErrPasswordsBusy, in seconds.
var passwordRetryAfter = middleware.RetryAfter(accounts.PasswordRetryAfter)

package sharepage

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/report"
)

// The owner's sign-in on the report pages. A browser sends no
// Authorization header, so the owner of a private report signs in on its
// page (the not-found page offers the form, whatever the token: it says
// nothing of the report) with an API key, or an email and password; a
// signed cookie then names the user on every report page for OwnerTTL.
//
// The cookie ("pinsight_owner") holds the user id, its expiry and an
// HMAC-SHA256 of both under CookieKey; it is HttpOnly, SameSite=Lax (a link
// to the page from elsewhere opens it signed in; GET only shows), Path
// /r/ (the API never reads it), and Secure when the client came over TLS:
// the connection's own, or a trusted proxy's X-Forwarded-Proto: https.
// A revoked key or a changed password ends no cookie already set: it ends
// with its short life, or at sign-out.
//
// The form is CSRF-safe by a signed double-submit token: GET sets a
// random nonce in a SameSite=Strict HttpOnly cookie ("pinsight_csrf") and
// puts HMAC(nonce) in the form; a POST must carry both, matching. A site
// elsewhere can neither read the nonce nor compute its HMAC, and its posts
// do not carry the Strict cookie. Before that, a browser's post from
// another origin (Sec-Fetch-Site, or Origin) is refused (sameOrigin).

const (
	ownerCookie = "pinsight_owner"
	csrfCookie  = "pinsight_csrf"
	csrfField   = "csrf"
)

// DefaultOwnerTTL is how long an owner's sign-in lasts by default.
const DefaultOwnerTTL = time.Hour

// cookiePath is the path of the sign-in cookies: every report page.
func (p *sharePage) cookiePath() string { return p.opts.BasePath + Prefix }

// mac is the base64url HMAC-SHA256 of parts under the cookie key; the
// first part names the purpose, so no signature serves another one.
func (p *sharePage) mac(parts ...string) string {
	m := hmac.New(sha256.New, p.opts.CookieKey)
	m.Write([]byte(strings.Join(parts, "|")))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// owner is the user the request's sign-in cookie names, 0 for none or one
// expired or forged.
func (p *sharePage) owner(r *http.Request) int64 {
	c, err := r.Cookie(ownerCookie)
	if err != nil {
		return 0
	}
	parts := strings.Split(c.Value, ".")
	if len(parts) != 3 {
		return 0
	}
	uid, err1 := strconv.ParseInt(parts[0], 10, 64)
	exp, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil || uid <= 0 || time.Now().Unix() > exp {
		return 0
	}
	if !hmac.Equal([]byte(parts[2]), []byte(p.mac("owner", parts[0], parts[1]))) {
		return 0
	}
	return uid
}

// csrfToken returns the form token of the request's nonce cookie, setting
// a new nonce when it has none.
func (p *sharePage) csrfToken(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(csrfCookie); err == nil && validNonce(c.Value) {
		return p.mac("csrf", c.Value)
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	nonce := base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: nonce, Path: p.cookiePath(),
		HttpOnly: true, Secure: p.overTLS(r), SameSite: http.SameSiteStrictMode})
	return p.mac("csrf", nonce)
}

// validNonce reports whether s has the shape of a nonce csrfToken sets.
func validNonce(s string) bool {
	b, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil && len(b) == 16
}

// sameOrigin refuses a browser's post from anywhere but the page's own
// origin. Browsers say where a request comes from in Sec-Fetch-Site,
// which pages cannot set; only same-origin passes. The page's
// Referrer-Policy (no-referrer) makes Chromium send "Origin: null" on the
// page's own forms, so Origin is compared only when it names an origin
// (older browsers send no Sec-Fetch-Site). Clients that send neither pass
// on to the token check.
func sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin":
		return true
	case "":
	default: // same-site, cross-site, none
		return false
	}
	o := r.Header.Get("Origin")
	if o == "" || o == "null" {
		return true
	}
	u, err := url.Parse(o)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}

// validCSRF reports whether a parsed form post carries the token of its
// nonce cookie, from this site.
func (p *sharePage) validCSRF(r *http.Request) bool {
	if !sameOrigin(r) {
		return false
	}
	c, err := r.Cookie(csrfCookie)
	if err != nil || !validNonce(c.Value) {
		return false
	}
	return hmac.Equal([]byte(r.PostForm.Get(csrfField)), []byte(p.mac("csrf", c.Value)))
}

// overTLS reports whether the client reached the server over TLS.
func (p *sharePage) overTLS(r *http.Request) bool {
	return middleware.ForwardedTLS(r, p.opts.TrustedProxies)
}

// notFound renders the not-found page, which offers the owner's sign-in
// for a well-formed token, with status and an optional error.
func (p *sharePage) notFound(w http.ResponseWriter, r *http.Request, status int, msg string) {
	d := pageData{Title: "Not found", Error: msg}
	if token := r.PathValue("token"); report.ValidShareToken(token) {
		d.Token, d.Action, d.CSRF = token, p.opts.BasePath+Path(token), p.csrfToken(w, r)
	}
	p.render(w, r, status, "notfound", d)
}

// signIn checks the owner's credentials (an API key, or an email and
// password) and sets the sign-in cookie; the answer says nothing of the
// report, which is not even looked up. The edge counts it against the
// login quota.
func (p *sharePage) signIn(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	if !report.ValidShareToken(token) {
		p.notFound(w, r, http.StatusNotFound, "")
		return
	}
	if err := p.readForm(w, r); err != nil || !p.validCSRF(r) {
		p.notFound(w, r, http.StatusForbidden, "The sign-in form expired or came from another site: try again.")
		return
	}
	uid, err := p.credentials(r)
	switch {
	case errors.Is(err, accounts.ErrPasswordsBusy):
		w.Header().Set("Retry-After", passwordRetryAfter)
		p.notFound(w, r, http.StatusServiceUnavailable, "Too many password checks at the moment: try again in a few seconds.")
		return
	case refused(err):
		p.notFound(w, r, http.StatusUnauthorized, "Wrong API key, or wrong email and password.")
		return
	case err != nil:
		p.fail(w, r, err)
		return
	}
	exp := strconv.FormatInt(time.Now().Add(p.opts.OwnerTTL).Unix(), 10)
	id := strconv.FormatInt(uid, 10)
	http.SetCookie(w, &http.Cookie{Name: ownerCookie, Value: id + "." + exp + "." + p.mac("owner", id, exp),
		Path: p.cookiePath(), MaxAge: int(p.opts.OwnerTTL.Seconds()),
		HttpOnly: true, Secure: p.overTLS(r), SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, p.opts.BasePath+Path(token), http.StatusSeeOther)
}

// credentials returns the user of the form's API key, or of its email and
// password when no key is given.
func (p *sharePage) credentials(r *http.Request) (int64, error) {
	if key := strings.TrimSpace(r.PostForm.Get("key")); key != "" {
		u, _, err := p.accounts.Authenticate(r.Context(), key)
		return u.ID, err
	}
	u, err := p.accounts.Verify(r.Context(), r.PostForm.Get("email"), r.PostForm.Get("password"))
	return u.ID, err
}

// refused reports whether err refuses the credentials themselves (wrong,
// malformed or missing), not the server's state.
func refused(err error) bool {
	var ve *account.ValidationError
	return err != nil && (fault.KindOf(err) == fault.Unauthorized || errors.As(err, &ve))
}

// signOut ends the owner's sign-in and returns to the page.
func (p *sharePage) signOut(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	if !report.ValidShareToken(token) {
		p.notFound(w, r, http.StatusNotFound, "")
		return
	}
	if err := p.readForm(w, r); err != nil || !p.validCSRF(r) {
		p.notFound(w, r, http.StatusForbidden, "The sign-out form expired or came from another site: try again.")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: ownerCookie, Value: "", Path: p.cookiePath(), MaxAge: -1,
		HttpOnly: true, Secure: p.overTLS(r), SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, p.opts.BasePath+Path(token), http.StatusSeeOther)
}

// readForm reads a small form body within bodyReadTimeout.
func (p *sharePage) readForm(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(bodyReadTimeout)) // unsupported by test recorders: then the server's ReadTimeout bounds it
	if err := r.ParseForm(); err != nil {
		return err // the deadline stays, so discarding the rest cannot block
	}
	_ = rc.SetReadDeadline(time.Time{})
	return nil
}

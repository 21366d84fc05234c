package sharepage_test

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// signInServer is the site server behind the edge with the login quota
// (authPerIP sign-ins, logins and registrations per IP) and 10.0.0.0/8 as
// trusted proxies.
func signInServer(t *testing.T, authPerIP int) *apitest.SiteServer {
	t.Helper()
	an := apitest.NewFakeAnalyser()
	store := memory.NewReportStore()
	mux := http.NewServeMux()
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	err := httpapi.Register(httpapi.NewAPI(mux), httpapi.Routes{Health: health.New(nil),
		Accounts: accounts.New(memory.NewAccountStore(), apitest.Passwords),
		Reports:  reports.New(store, an, apitest.Passwords), Projects: reports.NewProjects(store),
		Share: sharepage.Options{CookieKey: []byte("test key"), TrustedProxies: trusted}})
	if err != nil {
		t.Fatal(err)
	}
	h := middleware.NewHandler(mux, middleware.Options{Limiter: memory.NewRateLimiter(), RateLimits: middleware.RateLimits{
		Auth: ratelimit.Limit{Requests: authPerIP, Window: time.Hour}, TrustedProxies: trusted}})
	return &apitest.SiteServer{H: h, Analyser: an}
}

// browser keeps the cookies a page set, as a browser would, and sends
// them back with its requests from one address.
type browser struct {
	t       *testing.T
	h       http.Handler
	remote  string
	cookies map[string]string
	header  http.Header // sent with every request
}

func newBrowser(t *testing.T, h http.Handler, remote string) *browser {
	return &browser{t: t, h: h, remote: remote, cookies: map[string]string{}, header: http.Header{}}
}

func (b *browser) send(req *http.Request) apitest.Page {
	req.RemoteAddr = b.remote
	for k, vs := range b.header {
		req.Header[k] = vs
	}
	for name, v := range b.cookies {
		req.AddCookie(&http.Cookie{Name: name, Value: v})
	}
	p := apitest.Send(b.h, req)
	for _, c := range (&http.Response{Header: p.Header}).Cookies() {
		if c.MaxAge < 0 {
			delete(b.cookies, c.Name)
		} else {
			b.cookies[c.Name] = c.Value
		}
	}
	return p
}

func (b *browser) get(target string) apitest.Page {
	return b.send(httptest.NewRequest(http.MethodGet, target, nil))
}

func (b *browser) post(target string, form url.Values) apitest.Page {
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", apitest.FormType)
	return b.send(req)
}

var csrfInput = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrf is the form token of a page.
func csrf(t *testing.T, p apitest.Page) string {
	t.Helper()
	m := csrfInput.FindStringSubmatch(p.Body)
	if m == nil {
		t.Fatalf("no csrf token on the page: %d %s", p.Status, p.Body)
	}
	return m[1]
}

// TestOwnerSignIn: the owner of a private report signs in on its page with
// an API key or with her email and password, and then sees it; everyone
// else gets the one not-found page, the same as for a report that does not
// exist; the cookie is HttpOnly, SameSite=Lax, limited to /r/, Secure over
// TLS or behind a trusted proxy saying https; the form refuses posts
// without the token of its cookie or from another origin; sign-ins count
// against the login quota; sign-out ends it.
func TestOwnerSignIn(t *testing.T) {
	s := signInServer(t, 8)
	ada := apitest.Login(t, s.H, "ada@example.com") // 2 of the 8 logins of 192.0.2.1
	bob := apitest.Login(t, s.H, "bob@example.com") // 4 of 8
	s.Analyser.Set("https://alpha.com/", 80)
	priv := s.CreateReport(t, ada, "url=https://alpha.com/private")
	pub := s.CreateReport(t, ada, "url=https://alpha.com/&privacy=0")
	missing := "/r/" + strings.Repeat("a", 26)

	// Not found and private look alike, byte for byte but the token in the
	// page's own path.
	b := newBrowser(t, s.H, "198.51.100.1:1")
	first := b.get(priv.ShareURL)
	other := b.get(missing)
	if first.Status != 404 || other.Status != 404 || strings.Contains(first.Body, "alpha.com") {
		t.Fatalf("private page = %d, missing = %d", first.Status, other.Status)
	}
	if a, m := strings.ReplaceAll(first.Body, priv.ShareURL, "TOKEN"), strings.ReplaceAll(other.Body, missing, "TOKEN"); a != m {
		t.Errorf("a private report's page differs from a missing one's:\n%s\n---\n%s", a, m)
	}
	if !strings.Contains(first.Body, `<form method="post" action="`+priv.ShareURL+`/signin" id="signin">`) {
		t.Fatalf("no sign-in form: %s", first.Body)
	}
	csrfSet := first.Header.Get("Set-Cookie")
	if !strings.Contains(csrfSet, "pinsight_csrf=") || !strings.Contains(csrfSet, "HttpOnly") || !strings.Contains(csrfSet, "SameSite=Strict") ||
		!strings.Contains(csrfSet, "Path=/r/;") || strings.Contains(csrfSet, "Secure") {
		t.Errorf("csrf cookie = %q", csrfSet)
	}
	token := csrf(t, first)

	// Wrong credentials: 401, no cookie; the same for a missing report.
	for _, target := range []string{priv.ShareURL, missing} {
		p := b.post(target+"/signin", url.Values{"csrf": {token}, "key": {"psk_wrong"}})
		if p.Status != 401 || !strings.Contains(p.Body, "Wrong API key") || strings.Contains(p.Header.Get("Set-Cookie"), "pinsight_owner") {
			t.Errorf("wrong key on %s = %d %v", target, p.Status, p.Header)
		}
	}
	// Without the form's token, with another's, or from another origin: 403.
	for name, tc := range map[string]struct {
		form          url.Values
		origin, fetch string
	}{
		"no token":     {url.Values{"key": {ada}}, "", ""},
		"wrong token":  {url.Values{"key": {ada}, "csrf": {token + "x"}}, "", ""},
		"cross origin": {url.Values{"key": {ada}, "csrf": {token}}, "https://evil.example", ""},
		"cross site":   {url.Values{"key": {ada}, "csrf": {token}}, "null", "cross-site"},
		"same site":    {url.Values{"key": {ada}, "csrf": {token}}, "", "same-site"},
	} {
		b.header.Set("Origin", tc.origin)
		b.header.Set("Sec-Fetch-Site", tc.fetch)
		if p := b.post(priv.ShareURL+"/signin", tc.form); p.Status != 403 || strings.Contains(p.Header.Get("Set-Cookie"), "pinsight_owner") {
			t.Errorf("%s = %d %v", name, p.Status, p.Header)
		}
	}
	b.header.Del("Origin")
	b.header.Del("Sec-Fetch-Site")
	// A token from another browser's cookie does not fit this one's.
	stranger := newBrowser(t, s.H, "198.51.100.2:1")
	if p := stranger.post(priv.ShareURL+"/signin", url.Values{"key": {ada}, "csrf": {token}}); p.Status != 403 {
		t.Errorf("token without its cookie = %d", p.Status)
	}

	// The owner's key: 303 back to the page, which now shows the report.
	b.header.Set("Origin", "http://example.com") // httptest's Host
	in := b.post(priv.ShareURL+"/signin", url.Values{"csrf": {token}, "key": {ada}})
	set := in.Header.Get("Set-Cookie")
	if in.Status != 303 || in.Header.Get("Location") != priv.ShareURL || !strings.Contains(set, "pinsight_owner=") ||
		!strings.Contains(set, "HttpOnly") || !strings.Contains(set, "SameSite=Lax") || !strings.Contains(set, "Path=/r/;") ||
		!strings.Contains(set, "Max-Age=3600") || strings.Contains(set, "Secure") {
		t.Fatalf("sign-in = %d %v", in.Status, in.Header)
	}
	p := b.get(priv.ShareURL)
	if p.Status != 200 || !strings.Contains(p.Body, "alpha.com/private") || !strings.Contains(p.Body, `id="signout"`) {
		t.Fatalf("private page signed in = %d %s", p.Status, p.Body)
	}
	// The cookie names ada on her pages only: bob's private report stays
	// the same 404.
	bobs := s.CreateReport(t, bob, "url=https://alpha.com/bob")
	if p := b.get(bobs.ShareURL); p.Status != 404 || strings.Contains(p.Body, "alpha.com") {
		t.Errorf("another user's private report signed in = %d", p.Status)
	}
	// A forged or edited cookie opens nothing.
	forged := newBrowser(t, s.H, "198.51.100.3:1")
	uid, rest, _ := strings.Cut(b.cookies["pinsight_owner"], ".")
	for _, v := range []string{uid + "x." + rest, "2." + rest, b.cookies["pinsight_owner"] + "x", "1.99999999999.x"} {
		forged.cookies["pinsight_owner"] = v
		if p := forged.get(priv.ShareURL); p.Status != 404 {
			t.Errorf("cookie %q = %d", v, p.Status)
		}
	}
	// Sign-out needs the page's token too, and ends the sign-in.
	if p := b.post(priv.ShareURL+"/signout", url.Values{"csrf": {"x"}}); p.Status != 403 {
		t.Errorf("sign-out without the token = %d", p.Status)
	}
	if out := b.post(priv.ShareURL+"/signout", url.Values{"csrf": {csrf(t, p)}}); out.Status != 303 || b.cookies["pinsight_owner"] != "" {
		t.Errorf("sign-out = %d, cookies %v", out.Status, b.cookies)
	}
	if p := b.get(priv.ShareURL); p.Status != 404 {
		t.Errorf("after sign-out = %d", p.Status)
	}

	// Email and password, behind a trusted proxy that says https: the
	// cookies are Secure. The quota is the forwarded client's.
	viaProxy := newBrowser(t, s.H, "10.0.0.5:1")
	viaProxy.header.Set("X-Forwarded-For", "203.0.113.7")
	viaProxy.header.Set("X-Forwarded-Proto", "https")
	page := viaProxy.get(priv.ShareURL)
	if c := page.Header.Get("Set-Cookie"); !strings.Contains(c, "Secure") {
		t.Errorf("csrf cookie behind a TLS proxy = %q", c)
	}
	in = viaProxy.post(priv.ShareURL+"/signin", url.Values{"csrf": {csrf(t, page)}, "email": {"ada@example.com"}, "password": {"correct horse"}})
	if in.Status != 303 || !strings.Contains(in.Header.Get("Set-Cookie"), "Secure") {
		t.Fatalf("email sign-in behind a TLS proxy = %d %v", in.Status, in.Header)
	}
	if p := viaProxy.get(priv.ShareURL); p.Status != 200 || !strings.Contains(p.Body, "alpha.com/private") {
		t.Errorf("after email sign-in = %d", p.Status)
	}
	// X-Forwarded-Proto from an untrusted peer is ignored.
	liar := newBrowser(t, s.H, "198.51.100.4:1")
	liar.header.Set("X-Forwarded-Proto", "https")
	if c := liar.get(pub.ShareURL).Header.Get("Set-Cookie"); strings.Contains(c, "Secure") {
		t.Errorf("untrusted X-Forwarded-Proto made a Secure cookie: %q", c)
	}

	// Sign-ins count against the login quota of their IP (8 per hour here):
	// b has made 2 wrong ones, 5 refused by the CSRF checks, 1 right one.
	b.header.Set("Origin", "null") // as Chromium sends it from the page
	b.header.Set("Sec-Fetch-Site", "same-origin")
	if p := b.post(priv.ShareURL+"/signin", url.Values{"csrf": {csrf(t, b.get(priv.ShareURL))}, "key": {ada}}); p.Status != 429 || p.Header.Get("Retry-After") == "" {
		t.Errorf("9th sign-in = %d %v", p.Status, p.Header)
	}
	// ... and so did the logins of 192.0.2.1: 4 made, 4 left, then none.
	for i := range 5 {
		res := apitest.Do(t, s.H, http.MethodPost, "/api/v1/login", apitest.FormType, "email=ada@example.com&password=correct+horse")
		if want := []int{200, 200, 200, 200, 429}[i]; res.Status != want {
			t.Errorf("login %d = %d, want %d", i+5, res.Status, want)
		}
	}
}

package httpapi_test

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
)

// page is a raw (HTML) response.
type page struct {
	status int
	header http.Header
	body   string
}

func send(h http.Handler, req *http.Request) page {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	b, _ := io.ReadAll(rec.Body)
	return page{status: rec.Code, header: rec.Header(), body: string(b)}
}

func getPage(t *testing.T, h http.Handler, target string, headers ...string) page {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return send(h, req)
}

func postPassword(h http.Handler, target, password, remote string) page {
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader("password="+password))
	req.Header.Set("Content-Type", formType)
	req.RemoteAddr = remote
	return send(h, req)
}

func TestSharePage(t *testing.T) {
	s := newSiteServer(t)
	ada := login(t, s.h, "ada@example.com")
	s.analyser.set("https://alpha.com/", 80)
	pub := s.createReport(t, ada, "url=https://alpha.com/&privacy=0")
	priv := s.createReport(t, ada, "url=https://alpha.com/private")
	prot := s.createReport(t, ada, "url=https://alpha.com/protected&privacy=2&password=open+sesame")
	prot2 := s.createReport(t, ada, "url=https://alpha.com/protected2&privacy=2&password=open+sesame")

	shareURL := regexp.MustCompile(`^/r/[a-z2-7]{26}$`)
	for _, r := range []httpapi.ReportData{pub, priv, prot, prot2} {
		if !shareURL.MatchString(r.ShareURL) {
			t.Errorf("report %d share_url = %q, want /r/ and a 26-character base32 token", r.ID, r.ShareURL)
		}
	}
	p := getPage(t, s.h, pub.ShareURL)
	if p.status != 200 || !strings.HasPrefix(p.header.Get("Content-Type"), "text/html") || !strings.Contains(p.body, `data-score="80"`) ||
		!strings.Contains(p.body, `id="band">good<`) || !strings.Contains(p.body, `data-check="check_7"`) || !strings.Contains(p.body, "Welcome &lt;home&gt;") {
		t.Fatalf("public page = %d %s", p.status, p.body)
	}
	// The inline style sheet is exactly the one the CSP allows.
	style := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindStringSubmatch(p.body)
	sum := sha256.Sum256([]byte(style[1]))
	if csp := p.header.Get("Content-Security-Policy"); !strings.Contains(csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") {
		t.Errorf("CSP %q does not allow the page's style", csp)
	}
	if p.header.Get("Cache-Control") != "private, no-store" || p.header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("headers = %v", p.header)
	}
	// Report ids address no page: numeric URLs, old and new, are 404 for
	// every report, public ones included; so are other tokens.
	for _, target := range []string{priv.ShareURL, "/reports/" + itoa(pub.ID), "/r/" + itoa(pub.ID), "/r/" + strings.ToUpper(pub.ShareURL[3:]),
		pub.ShareURL[:len(pub.ShareURL)-1], pub.ShareURL + "a", "/r/" + strings.Repeat("a", 26), "/r/abc"} {
		if p := getPage(t, s.h, target); p.status != 404 || strings.Contains(p.body, "alpha.com") {
			t.Errorf("GET %s = %d", target, p.status)
		}
	}
	if p := getPage(t, s.h, priv.ShareURL, "Authorization", "Bearer psk_wrong"); p.status != 404 {
		t.Errorf("private with a wrong key = %d", p.status)
	}

	target := prot.ShareURL
	if p := getPage(t, s.h, target); p.status != 200 || !strings.Contains(p.body, `<form method="post" action="`+target+`"`) || strings.Contains(p.body, "data-score") {
		t.Fatalf("protected page = %d %s", p.status, p.body)
	}
	if p := postPassword(s.h, target, "wrong", "192.0.2.1:1"); p.status != 403 || !strings.Contains(p.body, "Wrong password") || p.header.Get("Set-Cookie") != "" {
		t.Errorf("wrong password = %d %v", p.status, p.header)
	}
	ok := postPassword(s.h, target, "open+sesame", "192.0.2.1:1")
	cookie := ok.header.Get("Set-Cookie")
	if ok.status != 303 || ok.header.Get("Location") != target || !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Lax") || !strings.Contains(cookie, "Path="+target+";") {
		t.Fatalf("right password = %d %v", ok.status, ok.header)
	}
	value := strings.SplitN(cookie, ";", 2)[0]
	if p := getPage(t, s.h, target, "Cookie", value); p.status != 200 || !strings.Contains(p.body, `data-score="50"`) || !strings.Contains(p.body, "alpha.com/protected") {
		t.Errorf("with the cookie = %d", p.status)
	}
	name, v, _ := strings.Cut(value, "=")
	if p := getPage(t, s.h, target, "Cookie", name+"="+v+"x"); strings.Contains(p.body, "data-score") {
		t.Error("a tampered cookie opened the report")
	}
	// The cookie is bound to its report's token: sent to another report with
	// the same password, it opens nothing.
	if p := getPage(t, s.h, prot2.ShareURL, "Cookie", value); p.status != 200 || strings.Contains(p.body, "data-score") {
		t.Errorf("another protected report with the first one's cookie = %d, opened: %v", p.status, strings.Contains(p.body, "data-score"))
	}
	if p := getPage(t, s.h, pub.ShareURL, "Cookie", value); p.status != 200 {
		t.Errorf("public page with a foreign cookie = %d", p.status)
	}
	// A new password invalidates remembered ones.
	do(t, s.h, http.MethodPut, idPath(prot.ID), formType, "password=new+sesame", bearer(ada)...)
	if p := getPage(t, s.h, target, "Cookie", value); strings.Contains(p.body, "data-score") {
		t.Error("the old password's cookie still opens the report")
	}
	// Attempts are throttled per client (5 in the test server), over every
	// report: another token does not give a client new attempts.
	var last page
	for i := range 6 {
		last = postPassword(s.h, []string{target, prot2.ShareURL}[i%2], "guess", "192.0.2.9:1")
	}
	if last.status != 429 || last.header.Get("Retry-After") == "" {
		t.Errorf("6th attempt = %d %v", last.status, last.header)
	}
	if p := postPassword(s.h, target, "new+sesame", "192.0.2.10:1"); p.status != 303 {
		t.Errorf("another client = %d, want its own quota", p.status)
	}
	for _, target := range []string{priv.ShareURL, "/reports/" + itoa(prot.ID), "/r/" + itoa(prot.ID)} {
		if p := postPassword(s.h, target, "x", "192.0.2.11:1"); p.status != 404 {
			t.Errorf("POST to %s = %d, want 404", target, p.status)
		}
	}
	// The owner's key opens each of her pages, whatever its privacy.
	for _, r := range []httpapi.ReportData{priv, prot} {
		if p := getPage(t, s.h, r.ShareURL, "Authorization", "Bearer "+ada); p.status != 200 || !strings.Contains(p.body, "data-score") {
			t.Errorf("owner on her page %d = %d", r.ID, p.status)
		}
	}
}

package sharepage_test

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
)

func TestSharePage(t *testing.T) {
	s := apitest.NewSiteServer(t)
	ada := apitest.Login(t, s.H, "ada@example.com")
	s.Analyser.Set("https://alpha.com/", 80)
	pub := s.CreateReport(t, ada, "url=https://alpha.com/&privacy=0")
	priv := s.CreateReport(t, ada, "url=https://alpha.com/private")
	prot := s.CreateReport(t, ada, "url=https://alpha.com/protected&privacy=2&password=open+sesame")
	prot2 := s.CreateReport(t, ada, "url=https://alpha.com/protected2&privacy=2&password=open+sesame")

	shareURL := regexp.MustCompile(`^/r/[a-z2-7]{26}$`)
	for _, r := range []wire.ReportData{pub, priv, prot, prot2} {
		if !shareURL.MatchString(r.ShareURL) {
			t.Errorf("report %d share_url = %q, want /r/ and a 26-character base32 token", r.ID, r.ShareURL)
		}
	}
	p := apitest.GetPage(t, s.H, pub.ShareURL)
	if p.Status != 200 || !strings.HasPrefix(p.Header.Get("Content-Type"), "text/html") || !strings.Contains(p.Body, `data-score="80"`) ||
		!strings.Contains(p.Body, `id="band">good<`) || !strings.Contains(p.Body, `data-check="check_7"`) || !strings.Contains(p.Body, "Welcome &lt;home&gt;") {
		t.Fatalf("public page = %d %s", p.Status, p.Body)
	}
	// The inline style sheet is exactly the one the CSP allows.
	style := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindStringSubmatch(p.Body)
	sum := sha256.Sum256([]byte(style[1]))
	if csp := p.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") {
		t.Errorf("CSP %q does not allow the page's style", csp)
	}
	if p.Header.Get("Cache-Control") != "private, no-store" || p.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("headers = %v", p.Header)
	}
	// Report ids address no page: numeric URLs, old and new, are 404 for
	// every report, public ones included; so are other tokens.
	for _, target := range []string{priv.ShareURL, "/reports/" + apitest.Itoa(pub.ID), "/r/" + apitest.Itoa(pub.ID), "/r/" + strings.ToUpper(pub.ShareURL[3:]),
		pub.ShareURL[:len(pub.ShareURL)-1], pub.ShareURL + "a", "/r/" + strings.Repeat("a", 26), "/r/abc"} {
		if p := apitest.GetPage(t, s.H, target); p.Status != 404 || strings.Contains(p.Body, "alpha.com") {
			t.Errorf("GET %s = %d", target, p.Status)
		}
	}
	if p := apitest.GetPage(t, s.H, priv.ShareURL, "Authorization", "Bearer psk_wrong"); p.Status != 404 {
		t.Errorf("private with a wrong key = %d", p.Status)
	}

	target := prot.ShareURL
	if p := apitest.GetPage(t, s.H, target); p.Status != 200 || !strings.Contains(p.Body, `<form method="post" action="`+target+`"`) || strings.Contains(p.Body, "data-score") ||
		!strings.Contains(p.Body, "<h1>This report is protected</h1>") || !strings.Contains(p.Body, "View report</button>") {
		t.Fatalf("protected page = %d %s", p.Status, p.Body)
	}
	if p := apitest.PostPassword(s.H, target, "wrong", "192.0.2.1:1"); p.Status != 403 || !strings.Contains(p.Body, "Wrong password") || p.Header.Get("Set-Cookie") != "" {
		t.Errorf("wrong password = %d %v", p.Status, p.Header)
	}
	ok := apitest.PostPassword(s.H, target, "open+sesame", "192.0.2.1:1")
	cookie := ok.Header.Get("Set-Cookie")
	if ok.Status != 303 || ok.Header.Get("Location") != target || !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Lax") || !strings.Contains(cookie, "Path="+target+";") {
		t.Fatalf("right password = %d %v", ok.Status, ok.Header)
	}
	value := strings.SplitN(cookie, ";", 2)[0]
	if p := apitest.GetPage(t, s.H, target, "Cookie", value); p.Status != 200 || !strings.Contains(p.Body, `data-score="50"`) || !strings.Contains(p.Body, "alpha.com/protected") {
		t.Errorf("with the cookie = %d", p.Status)
	}
	name, v, _ := strings.Cut(value, "=")
	if p := apitest.GetPage(t, s.H, target, "Cookie", name+"="+v+"x"); strings.Contains(p.Body, "data-score") {
		t.Error("a tampered cookie opened the report")
	}
	// The cookie is bound to its report's token: sent to another report with
	// the same password, it opens nothing.
	if p := apitest.GetPage(t, s.H, prot2.ShareURL, "Cookie", value); p.Status != 200 || strings.Contains(p.Body, "data-score") {
		t.Errorf("another protected report with the first one's cookie = %d, opened: %v", p.Status, strings.Contains(p.Body, "data-score"))
	}
	if p := apitest.GetPage(t, s.H, pub.ShareURL, "Cookie", value); p.Status != 200 {
		t.Errorf("public page with a foreign cookie = %d", p.Status)
	}
	// A new password invalidates remembered ones.
	apitest.Do(t, s.H, http.MethodPut, apitest.IDPath(prot.ID), apitest.FormType, "password=new+sesame", apitest.Bearer(ada)...)
	if p := apitest.GetPage(t, s.H, target, "Cookie", value); strings.Contains(p.Body, "data-score") {
		t.Error("the old password's cookie still opens the report")
	}
	// Attempts are throttled per client (5 in the test server), over every
	// report: another token does not give a client new attempts.
	var last apitest.Page
	for i := range 6 {
		last = apitest.PostPassword(s.H, []string{target, prot2.ShareURL}[i%2], "guess", "192.0.2.9:1")
	}
	if last.Status != 429 || last.Header.Get("Retry-After") == "" {
		t.Errorf("6th attempt = %d %v", last.Status, last.Header)
	}
	if p := apitest.PostPassword(s.H, target, "new+sesame", "192.0.2.10:1"); p.Status != 303 {
		t.Errorf("another client = %d, want its own quota", p.Status)
	}
	for _, target := range []string{priv.ShareURL, "/reports/" + apitest.Itoa(prot.ID), "/r/" + apitest.Itoa(prot.ID)} {
		if p := apitest.PostPassword(s.H, target, "x", "192.0.2.11:1"); p.Status != 404 {
			t.Errorf("POST to %s = %d, want 404", target, p.Status)
		}
	}
	// The owner's key opens each of her pages, whatever its privacy.
	for _, r := range []wire.ReportData{priv, prot} {
		if p := apitest.GetPage(t, s.H, r.ShareURL, "Authorization", "Bearer "+ada); p.Status != 200 || !strings.Contains(p.Body, "data-score") {
			t.Errorf("owner on her page %d = %d", r.ID, p.Status)
		}
	}
}

package sharepage_test

import (
	"html"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/ports/porttest"
)

// TestSharePageScreenshots: the page of a rendered report shows the first
// screen's screenshot (an img of its own origin, which the CSP allows,
// with alt text) and links the whole page's; the images are served to
// whoever may see the page, by the page's own rules: anyone for a public
// report (cacheable), the password's cookie or the owner's key for a
// protected one (private), nobody else; a report that did not render
// shows none.
func TestSharePageScreenshots(t *testing.T) {
	s := apitest.NewSiteServer(t)
	ada := apitest.Login(t, s.H, "ada@example.com")
	view, full := porttest.FakeJPEG(3000, 'v'), porttest.FakeJPEG(9000, 'f')
	s.Analyser.SetRendering(view, full)
	pub := s.CreateReport(t, ada, "url=https://app.example/&privacy=0&render=on&screenshot=full")
	p := apitest.GetPage(t, s.H, pub.ShareURL)
	img := pub.ShareURL + "/screenshot?kind=viewport"
	if p.Status != 200 || !strings.Contains(p.Body, `<img src="`+html.EscapeString(img)+`" alt="The first screen of https://app.example/, as headless Chromium rendered it"`) ||
		!strings.Contains(p.Body, `<a href="`+html.EscapeString(pub.ShareURL+"/screenshot?kind=full")+`" id="full-page">`) {
		t.Fatalf("public page of a rendered report = %d, lacks its screenshot or the full page link:\n%s", p.Status, p.Body)
	}
	if csp := p.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "img-src 'self'") || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP %q does not allow the page's own images (and only them)", csp)
	}
	got := apitest.GetPage(t, s.H, img)
	if got.Status != 200 || got.Body != string(view) || got.Header.Get("Content-Type") != "image/jpeg" || !strings.HasPrefix(got.Header.Get("Cache-Control"), "public") {
		t.Errorf("the public report's screenshot = %d, %d bytes, %v; want the image, public", got.Status, len(got.Body), got.Header)
	}
	if got := apitest.GetPage(t, s.H, pub.ShareURL+"/screenshot?kind=full"); got.Status != 200 || got.Body != string(full) {
		t.Errorf("the public report's full page screenshot = %d, %d bytes", got.Status, len(got.Body))
	}

	prot := s.CreateReport(t, ada, "url=https://app.example/p&privacy=2&password=open+sesame&render=on")
	pimg := prot.ShareURL + "/screenshot?kind=viewport"
	if got := apitest.GetPage(t, s.H, pimg); got.Status != 404 || strings.Contains(got.Body, string(view)) {
		t.Errorf("a protected report's screenshot without the password = %d, want 404", got.Status)
	}
	if got := apitest.GetPage(t, s.H, pimg, "Cookie", "pinsight_share=1.forged"); got.Status != 404 {
		t.Errorf("with a forged cookie = %d, want 404", got.Status)
	}
	ok := apitest.PostPassword(s.H, prot.ShareURL, "open+sesame", "192.0.2.1:1")
	cookie := strings.SplitN(ok.Header.Get("Set-Cookie"), ";", 2)[0]
	if got := apitest.GetPage(t, s.H, pimg, "Cookie", cookie); got.Status != 200 || got.Body != string(view) || !strings.HasPrefix(got.Header.Get("Cache-Control"), "private") {
		t.Errorf("with the password's cookie = %d, %v; want the image, private", got.Status, got.Header)
	}
	if got := apitest.GetPage(t, s.H, prot.ShareURL+"/screenshot?kind=full", "Cookie", cookie); got.Status != 404 {
		t.Errorf("a full page screenshot not asked for = %d, want 404", got.Status)
	}
	priv := s.CreateReport(t, ada, "url=https://app.example/private&render=on")
	if got := apitest.GetPage(t, s.H, priv.ShareURL+"/screenshot", "Cookie", cookie); got.Status != 404 {
		t.Errorf("a private report's screenshot to a stranger = %d, want 404", got.Status)
	}
	if got := apitest.GetPage(t, s.H, priv.ShareURL+"/screenshot", "Authorization", "Bearer "+ada); got.Status != 200 || got.Body != string(view) {
		t.Errorf("a private report's screenshot to its owner = %d", got.Status)
	}

	plain := s.CreateReport(t, ada, "url=https://plain.example/&privacy=0")
	if p := apitest.GetPage(t, s.H, plain.ShareURL); p.Status != 200 || strings.Contains(p.Body, `id="rendered"`) || strings.Contains(p.Body, "<img") {
		t.Errorf("a report that did not render shows a rendered section: %d", p.Status)
	}
	if got := apitest.GetPage(t, s.H, plain.ShareURL+"/screenshot"); got.Status != 404 {
		t.Errorf("the screenshot of a report that did not render = %d, want 404", got.Status)
	}
}

package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/ports/porttest"
)

// TestReportScreenshotOverHTTP: a rendered report lists the paths of its
// screenshots, served to its owner byte for byte as image/jpeg (private,
// with an ETag that answers 304), the whole page's only with
// screenshot=full; a re-analysis replaces them, one with render off and
// the report's deletion remove them (404 in the envelope); another user
// gets 404, no key 401; full with render off is 422 on screenshot.
func TestReportScreenshotOverHTTP(t *testing.T) {
	s := apitest.NewSiteServer(t)
	ada := apitest.Login(t, s.H, "ada@example.com")
	bob := apitest.Login(t, s.H, "bob@example.com")
	view, full := porttest.FakeJPEG(4000, 'v'), porttest.FakeJPEG(20000, 'f')
	s.Analyser.SetRendering(view, full)
	get := func(path string, headers ...string) apitest.Page {
		t.Helper()
		return apitest.GetPage(t, s.H, path, headers...)
	}

	res := apitest.Do(t, s.H, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://app.example/&render=on", apitest.Bearer(ada)...)
	var r wire.ReportData
	res.Decode(t, &r)
	path := "/api/v1/reports/" + apitest.Itoa(r.ID) + "/screenshot?kind="
	if res.Status != http.StatusCreated || r.Screenshot != "viewport" || r.Screenshots == nil || r.Screenshots.Viewport != path+"viewport" || r.Screenshots.Full != "" {
		t.Fatalf("render on = %d, screenshot %q, screenshots %+v; want viewport, its path alone", res.Status, r.Screenshot, r.Screenshots)
	}
	img := get(r.Screenshots.Viewport, apitest.Bearer(ada)...)
	if img.Status != 200 || img.Body != string(view) || img.Header.Get("Content-Type") != "image/jpeg" ||
		!strings.HasPrefix(img.Header.Get("Cache-Control"), "private") || img.Header.Get("ETag") == "" {
		t.Fatalf("GET the viewport screenshot = %d, %d bytes, %v; want the image, private", img.Status, len(img.Body), img.Header)
	}
	if again := get(r.Screenshots.Viewport, append(apitest.Bearer(ada), "If-None-Match", img.Header.Get("ETag"))...); again.Status != http.StatusNotModified {
		t.Errorf("GET with its ETag = %d, want 304", again.Status)
	}
	if nf := apitest.Do(t, s.H, http.MethodGet, path+"full", "", "", apitest.Bearer(ada)...); nf.Status != 404 || !strings.Contains(nf.Message, "screenshot") {
		t.Errorf("GET a full page screenshot not asked for = %d %q, want 404 in the envelope", nf.Status, nf.Message)
	}
	if other := apitest.Do(t, s.H, http.MethodGet, path+"viewport", "", "", apitest.Bearer(bob)...); other.Status != 404 {
		t.Errorf("another user's screenshot = %d, want 404", other.Status)
	}
	if anon := apitest.Do(t, s.H, http.MethodGet, path+"viewport", "", ""); anon.Status != 401 {
		t.Errorf("no key = %d, want 401", anon.Status)
	}
	if bad := apitest.Do(t, s.H, http.MethodGet, path+"thumb", "", "", apitest.Bearer(ada)...); bad.Status != 422 {
		t.Errorf("kind=thumb = %d, want 422", bad.Status)
	}

	// screenshot=full keeps the whole page's too.
	res = apitest.Do(t, s.H, http.MethodPost, "/api/v1/reports", apitest.JSONType, `{"url":"https://app.example/full","render":"on","screenshot":"full"}`, apitest.Bearer(ada)...)
	var f wire.ReportData
	res.Decode(t, &f)
	if res.Status != http.StatusCreated || f.Screenshot != "full" || f.Screenshots == nil || f.Screenshots.Full == "" {
		t.Fatalf("screenshot=full = %d, screenshots %+v", res.Status, f.Screenshots)
	}
	if img := get(f.Screenshots.Full, apitest.Bearer(ada)...); img.Status != 200 || img.Body != string(full) {
		t.Errorf("GET the full page screenshot = %d, %d bytes; want the %d taken", img.Status, len(img.Body), len(full))
	}

	// A re-analysis replaces them; one with render off deletes them.
	view2 := porttest.FakeJPEG(5000, 'w')
	s.Analyser.SetRendering(view2, full)
	if up := apitest.Do(t, s.H, http.MethodPut, apitest.IDPath(r.ID), apitest.FormType, "results=1", apitest.Bearer(ada)...); up.Status != 200 {
		t.Fatalf("re-analysis = %d %s", up.Status, up.Message)
	}
	if img := get(r.Screenshots.Viewport, apitest.Bearer(ada)...); img.Status != 200 || img.Body != string(view2) {
		t.Errorf("after the re-analysis: %d, %d bytes; want the new %d", img.Status, len(img.Body), len(view2))
	}
	up := apitest.Do(t, s.H, http.MethodPut, apitest.IDPath(r.ID), apitest.FormType, "results=1&render=off", apitest.Bearer(ada)...)
	var off wire.ReportData
	up.Decode(t, &off)
	if off.Screenshots != nil || get(r.Screenshots.Viewport, apitest.Bearer(ada)...).Status != 404 {
		t.Errorf("re-analysed with render off: screenshots %+v; want none, 404", off.Screenshots)
	}

	// full with render off is refused, on screenshot.
	if bad := apitest.Do(t, s.H, http.MethodPost, "/api/v1/reports", apitest.FormType, "url=https://app.example/&screenshot=full", apitest.Bearer(ada)...); bad.Status != 422 || bad.Errors["screenshot"] == nil {
		t.Errorf("screenshot=full with render off = %d %v, want 422 on screenshot", bad.Status, bad.Errors)
	}

	// Deleting the report deletes them.
	if del := apitest.Do(t, s.H, http.MethodDelete, apitest.IDPath(f.ID), "", "", apitest.Bearer(ada)...); del.Status != 200 {
		t.Fatalf("delete = %d", del.Status)
	}
	if nf := apitest.Do(t, s.H, http.MethodGet, f.Screenshots.Full, "", "", apitest.Bearer(ada)...); nf.Status != 404 {
		t.Errorf("a deleted report's screenshot = %d, want 404", nf.Status)
	}
}

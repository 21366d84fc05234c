package httpapi

import (
	"io/fs"
	"net/http"
	"strings"

	"github.com/swaggest/swgui"
	"github.com/swaggest/swgui/v5/static"
	"github.com/swaggest/swgui/v5emb"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
)

// docsPath is where the API reference page is served (under the host's
// base path); its scripts, style sheet and icons are under docsPath+"/".
const docsPath = "/docs"

// docsPolicy is the page's Content-Security-Policy: everything from the
// server itself, nothing from elsewhere (the page's one inline script
// starts Swagger UI).
const docsPolicy = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// registerDocs serves the API reference page at docsPath: Swagger UI 5
// (github.com/swaggest/swgui's v5emb, whose assets are embedded in the
// binary, so the page works offline or behind a locked-down network),
// reading the OpenAPI document at base+"/openapi.json". The page names its
// assets under base+docsPath+"/"; the handler sees paths without base.
func registerDocs(mux *http.ServeMux, base string) {
	ui := v5emb.NewHandlerWithConfig(swgui.Config{
		Title: "Pinsight API Reference", SwaggerJSON: base + "/openapi.json",
		BasePath: base + docsPath + "/", InternalBasePath: docsPath + "/",
	})
	assets := docsAssets()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, docsPath), "/")
		if name != "" && !assets[name] {
			middleware.WriteError(w, http.StatusNotFound, "no such route: "+r.Method+" "+r.URL.Path)
			return
		}
		w.Header().Set("Content-Security-Policy", docsPolicy)
		ui.ServeHTTP(w, r)
	})
	mux.Handle("GET "+docsPath, h)
	mux.Handle("GET "+docsPath+"/", h)
}

// docsAssets lists the names the page's assets are served under (the
// embedded files, gzipped ones by their plain names).
func docsAssets() map[string]bool {
	names := map[string]bool{}
	_ = fs.WalkDir(static.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names[strings.TrimSuffix(p, ".gz")] = true
		}
		return nil
	})
	return names
}

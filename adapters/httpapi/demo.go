package httpapi

import (
	_ "embed"
	"net/http"
)

// demoPath is where the demo page is served: a server-rendered sample
// shop page with the mistakes real pages often have (no meta description,
// an image without alt text, "click here", no canonical link),
// so that a newcomer's first analysis (the README's tour) shows what the
// analyser finds. It is static and served from the binary.
const demoPath = "/demo"

//go:embed demo/shop.html
var demoPage []byte

// registerDemo serves the demo page at demoPath.
func registerDemo(mux *http.ServeMux) {
	mux.HandleFunc("GET "+demoPath, func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", "default-src 'none'; style-src data:; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		h.Set("Cache-Control", "public, max-age=3600")
		_, _ = w.Write(demoPage)
	})
}

package pagecheck

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck/internal/css"
	"github.com/pinsight/pinsight/domain/webpage"
)

// Performance thresholds.
const (
	maxLoadTime     = 2 * time.Second
	maxPageBytes    = 330 * 1024 // bytes on the wire
	maxHTTPRequests = 50         // subresources one page loads
	maxDOMElements  = 1500
)

var performanceCheckers = []checker{
	checkTextCompression, checkLoadTime, checkPageSize, checkHTTPRequests,
	checkImageFormat, checkDeferJavaScript, checkDOMSize, checkImageDimensions,
}

var (
	defTextCompression = definition{"text_compression", "Text compression", Performance, High}
	defLoadTime        = definition{"load_time", "Load time", Performance, Medium}
	defPageSize        = definition{"page_size", "Page size", Performance, Medium}
	defHTTPRequests    = definition{"http_requests", "HTTP requests", Performance, Medium}
	defImageFormat     = definition{"image_format", "Image format", Performance, Medium}
	defDeferJavaScript = definition{"defer_javascript", "Defer JavaScript", Performance, Low}
	defDOMSize         = definition{"dom_size", "DOM size", Performance, Low}
	// Low: a missing size shifts the layout as the image loads (CLS), but
	// a style sheet may reserve the space in a way not read here.
	defImageDimensions = definition{"image_dimensions", "Image dimensions", Performance, Low}
)

// compressions are the content codings that compress text.
var compressions = map[string]bool{"gzip": true, "x-gzip": true, "br": true, "deflate": true, "zstd": true, "compress": true}

func checkTextCompression(p *page) Check {
	enc := strings.ToLower(strings.TrimSpace(p.f.Page.Encoding))
	for e := range strings.SplitSeq(enc, ",") {
		if compressions[strings.TrimSpace(e)] {
			return defTextCompression.pass(enc, "The page is compressed ("+enc+").")
		}
	}
	return defTextCompression.fail(orNil(enc), "The page is sent uncompressed; enable gzip or Brotli.", "missing")
}

func checkLoadTime(p *page) Check {
	d := p.f.Page.Elapsed
	secs := float64(d.Milliseconds()) / 1000
	if d > maxLoadTime {
		return defLoadTime.fail(secs, fmt.Sprintf("The page took %.2f s to load; aim for %s at most.", secs, maxLoadTime), "too_slow")
	}
	return defLoadTime.pass(secs, fmt.Sprintf("The page loaded in %.2f s.", secs))
}

func checkPageSize(p *page) Check {
	r := p.f.Page
	value := map[string]any{"bytes": float64(r.WireBytes), "decoded_bytes": num(len(r.Body)), "truncated": r.Truncated}
	switch {
	case r.Truncated:
		return defPageSize.fail(value, fmt.Sprintf("The page is larger than the analyser reads; only its first %d bytes were analysed.", len(r.Body)), "too_large", "truncated")
	case r.WireBytes > maxPageBytes:
		return defPageSize.fail(value, fmt.Sprintf("The page weighs %d KB on the wire; aim for %d KB at most.", r.WireBytes/1024, maxPageBytes/1024), "too_large")
	}
	return defPageSize.pass(value, fmt.Sprintf("The page weighs %d KB on the wire.", r.WireBytes/1024))
}

func checkHTTPRequests(p *page) Check {
	counts := map[string]any{}
	res := p.resources()
	for _, r := range res {
		n, _ := counts[r.kind].(float64)
		counts[r.kind] = n + 1
	}
	if len(res) > maxHTTPRequests {
		return defHTTPRequests.fail(counts, fmt.Sprintf("The page loads %d resources; aim for %d at most.", len(res), maxHTTPRequests), "too_many")
	}
	return defHTTPRequests.pass(counts, fmt.Sprintf("The page loads %d resources.", len(res)))
}

// legacyImage are image file types with better modern replacements.
var legacyImage = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".gif": true, ".bmp": true, ".tif": true, ".tiff": true}

// isModernImage reports whether a <source> type or srcset offers WebP, AVIF
// or JPEG XL.
func isModernImage(mime, srcset string) bool {
	mime = strings.ToLower(mime)
	if strings.Contains(mime, "webp") || strings.Contains(mime, "avif") || strings.Contains(mime, "jxl") {
		return true
	}
	for c := range strings.SplitSeq(srcset, ",") {
		if f := strings.Fields(c); len(f) > 0 {
			switch strings.ToLower(path.Ext(strings.SplitN(f[0], "?", 2)[0])) {
			case ".webp", ".avif", ".jxl":
				return true
			}
		}
	}
	return false
}

// legacyImageURL reports whether src names a JPEG, PNG, GIF, BMP or TIFF.
func legacyImageURL(src string) bool {
	l := strings.ToLower(src)
	if rest, ok := strings.CutPrefix(l, "data:image/"); ok {
		for _, t := range []string{"jpeg", "jpg", "png", "gif", "bmp", "tiff"} {
			if strings.HasPrefix(rest, t) {
				return true
			}
		}
		return false
	}
	l, _, _ = strings.Cut(l, "#")
	l, _, _ = strings.Cut(l, "?")
	return legacyImage[path.Ext(l)]
}

func checkImageFormat(p *page) Check {
	var legacy []string
	var o offenders
	for _, img := range p.tags["img"] {
		if src := attr(img, "src"); legacyImageURL(src) && !p.modern[img] && !isModernImage("", attr(img, "srcset")) {
			if strings.HasPrefix(strings.ToLower(src), "data:") {
				src = "data:" + strings.SplitN(src[5:], ";", 2)[0]
			}
			legacy = append(legacy, src)
			o.addNode(img)
		}
	}
	if len(legacy) > 0 {
		return defImageFormat.fail(list(legacy), fmt.Sprintf("%d image(s) use JPEG, PNG or GIF without a WebP or AVIF alternative.", len(legacy)), "legacy_format").blame(o)
	}
	return defImageFormat.pass(list(nil), "The images use modern formats (or have modern alternatives).")
}

func checkDeferJavaScript(p *page) Check {
	var blocking []string
	var o offenders
	for _, s := range p.tags["script"] {
		src := attr(s, "src")
		if src == "" || strings.EqualFold(attr(s, "type"), "module") {
			continue
		}
		_, async := s.Attr("async")
		_, deferred := s.Attr("defer")
		if !async && !deferred {
			blocking = append(blocking, src)
			o.addNode(s)
		}
	}
	if len(blocking) > 0 {
		return defDeferJavaScript.fail(list(blocking), fmt.Sprintf("%d script(s) load without defer or async.", len(blocking)), "not_deferred").blame(o)
	}
	return defDeferJavaScript.pass(list(nil), "Every external script is deferred.")
}

func checkDOMSize(p *page) Check {
	n := p.elements
	if n >= webpage.MaxElements { // the tree may have been cut there
		return defDOMSize.fail(num(n), fmt.Sprintf("The page has at least %d elements (the analyser reads no more); aim for %d at most.", webpage.MaxElements, maxDOMElements), "too_many", "truncated")
	}
	if n > maxDOMElements {
		return defDOMSize.fail(num(n), fmt.Sprintf("The page has %d elements; aim for %d at most.", n, maxDOMElements), "too_many")
	}
	return defDOMSize.pass(num(n), fmt.Sprintf("The page has %d elements.", n))
}

// checkImageDimensions fails on <img> elements that do not declare their
// size: width and height attributes, or both in their style attribute.
// Without them the browser cannot reserve the image's space, and the
// layout shifts when it loads (Cumulative Layout Shift).
func checkImageDimensions(p *page) Check {
	imgs := p.tags["img"]
	var o offenders
	for _, img := range imgs {
		if !sizedImage(img) {
			o.addNode(img)
		}
	}
	value := map[string]any{"images": num(len(imgs)), "unsized": num(o.total)}
	if o.total > 0 {
		return defImageDimensions.fail(value, fmt.Sprintf("%d of the page's %d images have no width and height attributes.", o.total, len(imgs)), "unsized").blame(o)
	}
	return defImageDimensions.pass(value, fmt.Sprintf("The page's %d images declare their width and height.", len(imgs)))
}

// sizedImage reports whether img declares both its width and height, as
// attributes (non-negative numbers) or in its style attribute (lengths
// other than auto).
func sizedImage(img *webpage.Node) bool {
	if dimension(attr(img, "width")) && dimension(attr(img, "height")) {
		return true
	}
	style, ok := img.Attr("style")
	if !ok {
		return false
	}
	w, h := false, false
	css.Decls(style, func(prop, value string) {
		set := value != "" && !strings.EqualFold(value, "auto")
		switch prop {
		case "width":
			w = set
		case "height":
			h = set
		}
	})
	return w && h
}

// dimension reports whether an HTML width or height attribute holds a
// non-negative number (HTML reads "600px" as 600).
func dimension(s string) bool {
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

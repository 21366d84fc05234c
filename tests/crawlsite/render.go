package crawlsite

import (
	"html"
	"strings"
)

// render writes the HTML page of e at path.
func render(origin, path string, e *entry) string {
	var b strings.Builder
	b.Grow(2048)
	esc := html.EscapeString
	title, desc := e.title, e.desc
	if title == "" {
		title = "Fixture " + path + ": " + text(path+"#title", 3)
	}
	if desc == "" && e.title == "" {
		desc = "About " + path + ": " + text(path+"#desc", 8) + "."
	}
	lang := e.lang
	if lang == "" {
		lang = "en"
	}
	b.WriteString("<!doctype html>\n<html lang=\"" + lang + "\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
	b.WriteString(esc(title))
	b.WriteString("</title>\n")
	if desc != "" {
		b.WriteString(`<meta name="description" content="` + esc(desc) + "\">\n")
	}
	if e.noindexMeta {
		b.WriteString("<meta name=\"robots\" content=\"noindex, follow\">\n")
	}
	switch {
	case e.absCanonical:
		b.WriteString(`<link rel="canonical" href="` + esc("HTTP://"+strings.TrimPrefix(origin, "http://")+path+"#main") + "\">\n")
	case e.canonical != "":
		b.WriteString(`<link rel="canonical" href="` + esc(e.canonical) + "\">\n")
	}
	for _, a := range e.alternates {
		b.WriteString(`<link rel="alternate" hreflang="` + a.lang + `" href="` + esc(a.href) + "\">\n")
	}
	if e.next != "" {
		b.WriteString(`<link rel="next" href="` + esc(e.next) + "\">\n")
	}
	if e.prev != "" {
		b.WriteString(`<link rel="prev" href="` + esc(e.prev) + "\">\n")
	}
	b.WriteString("</head>\n<body>\n")
	main := e.text
	if main == "" {
		main = text(path, 80)
	}
	if e.bare {
		b.WriteString("<main><p>" + esc(main) + "</p></main>\n</body>\n</html>\n")
		return b.String()
	}
	b.WriteString("<nav><a href=\"/\">Home</a>")
	for _, l := range e.links {
		b.WriteString(` <a href="` + esc(l) + `">` + esc(linkText(l)) + "</a>")
	}
	b.WriteString("</nav>\n<main>\n<h1>" + esc(title) + "</h1>\n<p>" + esc(main) + "</p>\n</main>\n</body>\n</html>\n")
	return b.String()
}

// linkText is the text of a link to href.
func linkText(href string) string {
	return strings.Trim(strings.NewReplacer("/", " ", "-", " ", "?", " ", "=", " ", "#", " ").Replace(href), " ")
}

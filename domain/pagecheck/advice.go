package pagecheck

import (
	"slices"
	"strings"
)

// maxAdviceRunes bounds a check's advice (the sentences of all its failure
// codes together), cut like a message.
const maxAdviceRunes = 600

// advice says what to change for each failure code of each check, one
// sentence each; "" is the check's advice for a code it has none for.
var advice = map[string]map[string]string{
	// SEO
	"http_status": {
		"":             "Serve the page with a 200 status: fix the error, or redirect a moved page to its new URL with a 301.",
		"server_error": "Fix the server error (see the server's logs) so the page answers 200; crawlers retry a 5xx and then drop the page.",
		"client_error": "Serve the page with a 200 status, or redirect a moved page with a 301; a 4xx page is dropped from search results.",
		"not_success":  "Answer the URL with a 200 and the page itself; crawlers do not index a page that answers another status.",
	},
	"title": {
		"":         "Give the page one <title> in its <head> that names its content in 1 to 60 characters.",
		"missing":  "Add a <title> to the <head> that names the page's content; search results show it as the link text.",
		"too_many": "Keep a single <title> element; remove the others (often added twice by a theme and a plugin).",
		"too_long": "Shorten the title to 60 characters or fewer, main words first; search results cut longer titles.",
	},
	"meta_description": {
		"":         "Add one <meta name=\"description\" content=\"...\"> summarising the page in a sentence or two.",
		"missing":  "Add <meta name=\"description\" content=\"...\"> summarising the page in one or two sentences; search results show it under the title.",
		"too_many": "Keep a single meta description; remove the duplicates so crawlers know which one to show.",
	},
	"headings": {
		"":              "Give the page one <h1> that states its subject, then <h2>-<h6> for its sections.",
		"missing":       "Add one <h1> heading that states what the page is about.",
		"too_many":      "Keep one <h1> for the page's subject and turn the others into <h2> section headings.",
		"same_as_title": "Write an <h1> that describes the content rather than repeating the title word for word.",
	},
	"content_keywords": {
		"":                 "Use the main words of the title in the page's visible text.",
		"missing":          "Give the page a title with meaningful words (not only stop words) so its content can be matched against it.",
		"missing_keywords": "Use the title's main words in the visible text, or retitle the page after what it says.",
	},
	"image_keywords": {
		"":            "Give every <img> an alt attribute describing it (alt=\"\" for a purely decorative image).",
		"missing_alt": "Add an alt attribute to each image listed: a short description, or alt=\"\" for a decorative one.",
	},
	"seo_friendly_url": {
		"":           "Use readable URLs: lower-case words separated by hyphens, without query strings or underscores.",
		"unfriendly": "Rewrite the listed URLs as readable paths (/garden-tools/spades rather than /index.php?id=3&cat_id=7).",
	},
	"404_page": {
		"":            "Make a URL that does not exist answer 404 (or 410).",
		"unreachable": "Make sure the site answers requests for missing pages, with a 404 status.",
		"soft_404":    "Answer missing pages with a 404 (or 410) status, not a 200 or a redirect to the home page, so crawlers drop dead URLs.",
	},
	"robots": {
		"":           "Allow crawlers to fetch the page in robots.txt.",
		"disallowed": "Remove or narrow the robots.txt rule that blocks this page, unless it must stay out of search engines.",
	},
	"noindex": {
		"":            "Remove what keeps the page out of search engines, unless it must stay out.",
		"noindex":     "Remove the noindex (or none) directive from the robots meta tag or X-Robots-Tag header, unless the page must stay out of search results.",
		"unavailable": "Remove or move forward the unavailable_after date, which has passed: search engines now drop the page.",
	},
	"in_page_links": {
		"":         "Keep the links of one page to 150 or fewer.",
		"too_many": "Trim the page to 150 links or fewer: group navigation, paginate long lists.",
	},
	"language": {
		"":             "Declare the page's language on <html>, as a valid BCP 47 tag such as lang=\"en\" or lang=\"hi-IN\".",
		"missing":      "Add a lang attribute to <html> with the content's language, e.g. <html lang=\"en\"> or <html lang=\"hi\">.",
		"invalid_code": "Use a valid BCP 47 language tag in <html lang>: a registered language code with an optional script and region (hi, en-IN, zh-Hant-TW), hyphens not underscores.",
	},
	"favicon": {
		"":        "Declare a favicon with <link rel=\"icon\" href=\"/favicon.svg\">.",
		"missing": "Add <link rel=\"icon\" href=\"...\"> to the <head>; search results on phones show it beside the site's name.",
	},
	"canonical": {
		"":                   "Declare one absolute canonical URL that answers 200 and stands for this page's content.",
		"missing":            "Add <link rel=\"canonical\" href=\"https://...\"> naming the preferred URL of this content (the page's own URL if it is the original).",
		"too_many":           "Keep a single canonical link: several that disagree are all ignored.",
		"conflict":           "Make the canonical URL of the Link header and of the markup the same, or drop one of them: disagreeing canonicals are ignored.",
		"relative":           "Write the canonical link as an absolute URL with its scheme and host (https://example.com/page).",
		"other_host":         "Point the canonical link at a URL on this site, unless the content really is a copy of another site's page.",
		"hreflang_alternate": "Point the canonical link at this page's own URL, not at a version in another language, which would drop this version from search.",
		"root":               "Point the canonical link at this page's own URL, not the home page, unless the two really hold the same content.",
		"redirects":          "Point the canonical link at the final URL its redirect leads to; a canonical URL should answer 200 itself.",
		"error_status":       "Point the canonical link at a URL that answers 200; a canonical that fails to load is ignored.",
	},
	"hreflang": {
		"":                    "List every language version of the page, itself included, with valid codes and absolute URLs that link back.",
		"duplicate":           "Give each language code a single URL (compare the markup with the Link header).",
		"invalid_code":        "Use valid hreflang codes: an ISO 639-1 language code with an optional ISO 15924 script and ISO 3166-1 region (en, en-GB, zh-Hant-TW), or x-default.",
		"relative":            "Write each hreflang alternate as an absolute URL with its scheme and host.",
		"missing_self":        "Add an hreflang link to the page itself, beside its other language versions.",
		"alternate_redirects": "Point each hreflang alternate at its final URL, not one that redirects.",
		"alternate_error":     "Fix or remove the hreflang alternates that do not answer 200.",
		"no_return_link":      "Link back from each language version to this page with its own hreflang links; search engines ignore one-way pairs.",
	},
	"robots_directives": {
		"":                  "Write robots directives as Google and Bing document them.",
		"unknown_directive": "Remove or correct the directives crawlers do not know (check the spelling: noindex, nofollow, max-snippet:50...).",
		"invalid_value":     "Give the listed directives a valid value: max-snippet and max-video-preview a number, max-image-preview none, standard or large, unavailable_after a date.",
		"conflict":          "Remove one of each pair of contradicting directives (index with noindex, follow with nofollow): crawlers apply the most restrictive.",
	},
	"crawlable_anchors": {
		"":                "Give every link an href with a real URL.",
		"javascript_href": "Put the destination URL in href and attach the script with an event listener instead: crawlers do not run javascript: links.",
		"file_href":       "Replace file: links, which point into the visitor's own computer, with web URLs.",
		"no_href":         "Give each link an href with its destination URL (or use a <button> for an action): crawlers follow only href.",
	},
	"link_text": {
		"":             "Write link text that says where the link leads.",
		"generic_text": "Replace generic link text (\"click here\", \"read more\", \"यहाँ क्लिक करें\") with words that name the destination, e.g. \"read the spade buying guide\".",
	},
	"plugins": {
		"":        "Replace plugin content (Flash, Java, Silverlight) with HTML.",
		"plugins": "Replace the Flash, Java or Silverlight content with HTML, <video> or images: no current browser runs plugins and crawlers cannot read them.",
	},
	// Performance
	"text_compression": {
		"":        "Enable gzip or Brotli compression for HTML on the server.",
		"missing": "Enable gzip or Brotli for text responses on the server or CDN (for example gzip on; in nginx).",
	},
	"load_time": {
		"":         "Make the page answer within 2 seconds.",
		"too_slow": "Cut the server's response time: cache rendered pages, speed up slow database queries, or serve through a CDN.",
	},
	"page_size": {
		"":          "Keep the page's HTML under 330 KB on the wire.",
		"too_large": "Shrink the HTML: compress it, move inline scripts, styles and data into cached files, paginate long content.",
		"truncated": "Split the page: beyond the analyser's limit crawlers too stop reading it.",
	},
	"http_requests": {
		"":         "Load 50 resources or fewer.",
		"too_many": "Load fewer files: bundle scripts and style sheets, lazy-load images below the fold, drop unused third-party tags.",
	},
	"image_format": {
		"":              "Serve images as WebP or AVIF.",
		"legacy_format": "Serve the listed images as WebP or AVIF, or offer those in a <picture> with the JPEG or PNG as fallback.",
	},
	"defer_javascript": {
		"":             "Load external scripts with defer or async.",
		"not_deferred": "Add defer (or async for independent scripts) to the listed <script src> elements so they do not block rendering.",
	},
	"dom_size": {
		"":          "Keep the page under 1,500 elements.",
		"too_many":  "Reduce the page's elements: remove wrapper <div>s, paginate or lazy-render long lists.",
		"truncated": "Split the page: the analyser reads its first 50,000 elements, and a browser struggles long before that.",
	},
	"image_dimensions": {
		"":        "Give every image width and height attributes.",
		"unsized": "Add width and height attributes (the image's intrinsic size) to the listed images so the browser reserves their space and the layout does not shift.",
	},
	// Security
	"https_encryption": {
		"":          "Serve the page over HTTPS.",
		"not_https": "Serve the site over HTTPS (a free certificate from Let's Encrypt will do) and redirect HTTP to it.",
	},
	"mixed_content": {
		"":              "Load every resource of an HTTPS page over HTTPS.",
		"mixed_content": "Change the listed http:// resources to https:// (or host them yourself); browsers block or flag them.",
	},
	"server_signature": {
		"":        "Hide server software versions from response headers.",
		"exposed": "Hide the software versions (server_tokens off; in nginx, ServerTokens Prod in Apache, expose_php = Off in PHP).",
	},
	"unsafe_cross_origin_links": {
		"":             "Add rel=\"noopener\" to links that open other sites in a new tab.",
		"unsafe_links": "Add rel=\"noopener\" (or noreferrer) to the listed target=\"_blank\" links to other sites.",
	},
	"plaintext_email": {
		"":        "Keep e-mail addresses out of the page's text.",
		"exposed": "Replace the listed addresses with a contact form, or obfuscate them, so harvesters do not collect them.",
	},
	"hsts": {
		"":          "Send Strict-Transport-Security: max-age=31536000 over HTTPS.",
		"not_https": "Serve the site over HTTPS first, then send a Strict-Transport-Security header.",
		"missing":   "Send Strict-Transport-Security: max-age=31536000; includeSubDomains with HTTPS responses.",
		"too_short": "Raise the Strict-Transport-Security max-age to at least 15552000 (180 days); 31536000 is usual.",
	},
	"content_security_policy": {
		"":        "Send a Content-Security-Policy header.",
		"missing": "Send a Content-Security-Policy header, starting from default-src 'self' and allowing the origins the page needs.",
	},
	"x_content_type_options": {
		"":        "Send X-Content-Type-Options: nosniff.",
		"missing": "Send X-Content-Type-Options: nosniff with every response.",
		"invalid": "Set X-Content-Type-Options to exactly nosniff, its only valid value.",
	},
	// Miscellaneous
	"structured_data": {
		"":                "Describe the page with valid structured data (JSON-LD with @context and @type, or Open Graph).",
		"missing":         "Add structured data: a JSON-LD block with @context \"https://schema.org\" and an @type, or Open Graph meta tags.",
		"invalid_json":    "Fix the JSON syntax of the listed JSON-LD blocks (trailing commas, unquoted keys, unescaped quotes); an invalid block is ignored.",
		"missing_context": "Add \"@context\": \"https://schema.org\" to the listed JSON-LD blocks.",
		"missing_type":    "Give every JSON-LD item (and every item of an @graph) an @type, such as Article, Product or Organization.",
	},
	"meta_viewport": {
		"":            "Add <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">.",
		"missing":     "Add <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"> to the <head>.",
		"no_width":    "Set width=device-width (or initial-scale=1) in the viewport meta tag; without either, phones lay the page out at desktop width.",
		"blocks_zoom": "Remove user-scalable=no and any maximum-scale below 5 from the viewport meta tag so visitors can zoom.",
	},
	"charset": {
		"":        "Declare the character set with <meta charset=\"utf-8\">.",
		"missing": "Add <meta charset=\"utf-8\"> as the first element of the <head> (or charset=utf-8 to the Content-Type header).",
	},
	"sitemap": {
		"":        "List the sitemap in robots.txt.",
		"missing": "Publish an XML sitemap and add a Sitemap: https://.../sitemap.xml line to robots.txt.",
	},
	"social": {
		"":        "Link to the site's social network profiles.",
		"missing": "Link to the site's profiles on the social networks it uses, for example in the footer.",
	},
	"content_length": {
		"":          "Give the page at least 500 words of text.",
		"too_short": "Add substantive text (at least 500 words) describing the page's subject; thin pages rank poorly.",
	},
	"text_html_ratio": {
		"":        "Raise the share of visible text in the HTML.",
		"too_low": "Add visible text or trim markup: inline scripts, styles, data blobs and wrapper elements.",
	},
	"inline_css": {
		"":              "Move inline styles to a style sheet.",
		"inline_styles": "Move the style attributes of the listed elements into CSS classes in a cached style sheet.",
	},
	"deprecated_html": {
		"":                "Replace deprecated HTML elements with current ones.",
		"deprecated_tags": "Replace the listed elements with current HTML and CSS (<center> with text-align, <font> with CSS, <frame> with layouts).",
	},
	"doctype": {
		"":        "Start the page with <!DOCTYPE html>.",
		"missing": "Start the page with <!DOCTYPE html> so browsers render it in standards mode.",
		"invalid": "Replace the doctype with <!DOCTYPE html>.",
	},
	"font_size": {
		"":          "Set a base font size of at least 12px.",
		"too_small": "Raise the base font size of html or body to at least 12px (16px is the browsers' default); text smaller than that is hard to read on phones.",
	},
	// Rendered only (AnalyseRendered)
	"lcp": {
		"":                  "Make the largest element of the first screen paint within 2.5 s.",
		"needs_improvement": "Speed up the largest element of the first screen (listed): preload its image or font, serve it compressed and sized, and cut render-blocking scripts and styles before it.",
		"poor":              "Speed up the largest element of the first screen (listed), which paints after 4 s: preload it, serve its image compressed and sized, answer the HTML faster and render it on the server.",
	},
	"cls": {
		"":                  "Keep the layout from shifting as the page loads (CLS 0.1 at most).",
		"needs_improvement": "Reserve the space of images, embeds and ads (width and height, aspect-ratio) and avoid inserting content above what is already shown.",
		"poor":              "Reserve the space of images, embeds, ads and late content (width and height, aspect-ratio, min-height), and load web fonts with font-display: optional or matched fallbacks.",
	},
	"tbt": {
		"":                  "Keep the main thread free: a total blocking time of 200 ms at most.",
		"needs_improvement": "Split long scripts into smaller tasks, defer what the first screen does not need and drop unused third-party scripts.",
		"poor":              "Cut the JavaScript run at load: split bundles, defer or remove third-party tags, move heavy work to a web worker or the server.",
	},
	"fcp": {
		"":                  "Paint the first content within 1.8 s.",
		"needs_improvement": "Answer the HTML faster and inline the critical CSS; defer scripts and styles the first screen does not need.",
		"poor":              "Render the first screen on the server, answer the HTML faster (caching, a CDN) and remove render-blocking scripts and styles.",
	},
	"rendered_content": {
		"":              "Serve the page's text, links and title in its HTML rather than writing them with scripts.",
		"content_added": "Render the page's main text on the server (server-side rendering or static generation): crawlers that do not run scripts, and Google until it renders, see an empty page.",
		"links_added":   "Put the listed links in the HTML as <a href> elements: links that only scripts create are found late or not at all.",
		"title_changed": "Serve the final title in the HTML's <title>; a title scripts change may not be the one search results show.",
	},
	"rendered_canonical": {
		"":        "Declare the canonical URL in the HTML and keep scripts from changing it.",
		"added":   "Declare the canonical link in the HTML: one only scripts add may be missed.",
		"removed": "Keep scripts from removing the canonical link the HTML declares.",
		"changed": "Make the canonical link of the HTML the final one and keep scripts from changing it: search engines may use either.",
	},
	"rendered_robots": {
		"":                "Declare robots directives in the HTML or headers and keep scripts from changing them.",
		"noindex_added":   "Remove the script that adds noindex, or put the noindex in the HTML if the page must stay out of search results.",
		"noindex_removed": "Remove the noindex from the HTML if the page should be indexed: a search engine that sees noindex may not run the script that removes it.",
	},
	"blocked_resources": {
		"":        "Let crawlers fetch the scripts, styles and data the page needs to render.",
		"blocked": "Allow the listed resources in robots.txt (narrow the Disallow rule or add an Allow): search engines render the page without them and may see it broken or empty.",
	},
	"js_errors": {
		"":               "Fix the page's JavaScript errors.",
		"exceptions":     "Fix the uncaught exceptions listed (see the browser's console): the code after them does not run, and with it perhaps the page's content.",
		"console_errors": "Fix what the listed console errors report: failed loads, blocked requests, code errors.",
	},
	"failed_requests": {
		"":       "Make every resource the page loads answer.",
		"failed": "Fix or remove the listed requests that fail: a broken script, style or API call may leave the page incomplete.",
	},
}

// adviceFor joins the advice of each of codes for the check id, each
// sentence once, in code order.
func adviceFor(id string, codes []string) string {
	byCode := advice[id]
	var parts []string
	for _, c := range codes {
		a, ok := byCode[c]
		if !ok {
			a = byCode[""]
		}
		if a != "" && !slices.Contains(parts, a) {
			parts = append(parts, a)
		}
	}
	if len(parts) == 0 {
		parts = append(parts, byCode[""])
	}
	return cut(strings.Join(parts, " "), maxAdviceRunes)
}

// AdviceFor is the advice a failed check gives for one of its failure
// codes; false when the check has no advice of its own for that code (it
// then gives its general advice).
func AdviceFor(id, code string) (string, bool) {
	a, ok := advice[id][code]
	return a, ok && code != ""
}

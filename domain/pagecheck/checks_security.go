package pagecheck

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// minHSTSMaxAge is the shortest Strict-Transport-Security max-age that
// passes: 180 days, in seconds.
const minHSTSMaxAge = 180 * 24 * 3600

var securityCheckers = []checker{
	checkHTTPS, checkMixedContent, checkServerSignature, checkUnsafeCrossOriginLinks,
	checkPlaintextEmail, checkHSTS, checkCSP, checkContentTypeOptions,
}

var (
	defHTTPS                  = definition{"https_encryption", "HTTPS encryption", Security, High}
	defMixedContent           = definition{"mixed_content", "Mixed content", Security, Medium}
	defServerSignature        = definition{"server_signature", "Server signature", Security, Medium}
	defUnsafeCrossOriginLinks = definition{"unsafe_cross_origin_links", "Unsafe cross-origin links", Security, Medium}
	defPlaintextEmail         = definition{"plaintext_email", "Plaintext email", Security, Low}
	defHSTS                   = definition{"hsts", "HTTP Strict Transport Security", Security, Medium}
	defCSP                    = definition{"content_security_policy", "Content Security Policy", Security, Medium}
	defContentTypeOptions     = definition{"x_content_type_options", "X-Content-Type-Options", Security, Low}
)

func checkHTTPS(p *page) Check {
	if p.url.Scheme == "https" {
		return defHTTPS.pass(p.url.Scheme, "The page is served over HTTPS.")
	}
	return defHTTPS.fail(orNil(p.url.Scheme), "The page is not served over HTTPS.", "not_https")
}

func checkMixedContent(p *page) Check {
	if p.url.Scheme != "https" {
		return defMixedContent.pass(list(nil), "The page is not served over HTTPS, so no content is mixed in.")
	}
	var mixed []string
	for _, r := range p.resources() {
		if u, ok := p.resolve(r.url); ok && u.Scheme == "http" {
			mixed = append(mixed, u.String())
		}
	}
	if len(mixed) > 0 {
		return defMixedContent.fail(list(mixed), fmt.Sprintf("%d resource(s) load over plain HTTP on an HTTPS page.", len(mixed)), "mixed_content")
	}
	return defMixedContent.pass(list(nil), "Every resource loads over HTTPS.")
}

// versioned matches a product version such as "nginx/1.25.3" or "PHP 8.2".
var versioned = regexp.MustCompile(`[0-9]+(\.[0-9]+)+|/[0-9]`)

func checkServerSignature(p *page) Check {
	value := map[string]any{}
	var leaks []string
	for _, h := range []string{"Server", "X-Powered-By", "X-Aspnet-Version", "X-Aspnetmvc-Version", "X-Generator"} {
		v := p.header(h)
		if v == "" {
			continue
		}
		value[h] = v
		if h != "Server" || versioned.MatchString(v) {
			leaks = append(leaks, h+": "+v)
		}
	}
	if len(leaks) > 0 {
		return defServerSignature.fail(value, "The response reveals the server software: "+strings.Join(leaks, "; ")+".", "exposed")
	}
	return defServerSignature.pass(value, "The response does not reveal server software versions.")
}

func checkUnsafeCrossOriginLinks(p *page) Check {
	var unsafe []string
	var o offenders
	for _, a := range p.tags["a"] {
		if !strings.EqualFold(attr(a, "target"), "_blank") {
			continue
		}
		u, ok := p.resolve(attr(a, "href"))
		if !ok || p.sameSite(u.Hostname()) {
			continue
		}
		if !hasToken(a, "rel", "noopener") && !hasToken(a, "rel", "noreferrer") {
			unsafe = append(unsafe, u.String())
			o.addNode(a)
		}
	}
	if len(unsafe) > 0 {
		return defUnsafeCrossOriginLinks.fail(list(unsafe), fmt.Sprintf("%d link(s) open another site in a new tab without rel=\"noopener\".", len(unsafe)), "unsafe_links").blame(o)
	}
	return defUnsafeCrossOriginLinks.pass(list(nil), "Links that open other sites in a new tab use rel=\"noopener\".")
}

func checkPlaintextEmail(p *page) Check {
	var found []string
	seen := map[string]bool{}
	add := func(e string) {
		if !seen[e] {
			seen[e] = true
			found = append(found, e)
		}
	}
	for _, e := range findEmails(p.text) {
		add(e)
	}
	for _, a := range p.tags["a"] {
		if rest, ok := strings.CutPrefix(strings.ToLower(attr(a, "href")), "mailto:"); ok {
			if e := email.FindString(rest); e != "" {
				add(e)
			}
		}
	}
	if len(found) > 0 {
		return defPlaintextEmail.fail(list(found), fmt.Sprintf("%d e-mail address(es) appear in plain text, where spammers harvest them.", len(found)), "exposed")
	}
	return defPlaintextEmail.pass(list(nil), "No e-mail address appears in plain text.")
}

func checkHSTS(p *page) Check {
	if p.url.Scheme != "https" {
		return defHSTS.fail(nil, "HSTS needs HTTPS; the page is served over HTTP.", "not_https")
	}
	v := p.header("Strict-Transport-Security")
	if v == "" {
		return defHSTS.fail(nil, "The response has no Strict-Transport-Security header.", "missing")
	}
	age := -1
	for d := range strings.SplitSeq(v, ";") {
		if k, val, ok := strings.Cut(strings.TrimSpace(d), "="); ok && strings.EqualFold(strings.TrimSpace(k), "max-age") {
			if n, err := strconv.Atoi(strings.Trim(strings.TrimSpace(val), `"`)); err == nil {
				age = n
			}
		}
	}
	if age < minHSTSMaxAge {
		return defHSTS.fail(v, fmt.Sprintf("The HSTS max-age should be at least %d seconds (180 days).", minHSTSMaxAge), "too_short")
	}
	return defHSTS.pass(v, "The response sets Strict-Transport-Security.")
}

func checkCSP(p *page) Check {
	if v := p.header("Content-Security-Policy"); v != "" {
		return defCSP.pass(v, "The response sets a Content-Security-Policy.")
	}
	for _, m := range p.metas("http-equiv", "content-security-policy") {
		if c := attr(m, "content"); c != "" {
			return defCSP.pass(c, "The page sets a Content-Security-Policy in a meta tag.")
		}
	}
	return defCSP.fail(nil, "The page sets no Content-Security-Policy.", "missing")
}

func checkContentTypeOptions(p *page) Check {
	v := p.header("X-Content-Type-Options")
	if strings.EqualFold(v, "nosniff") {
		return defContentTypeOptions.pass(v, "The response sets X-Content-Type-Options: nosniff.")
	}
	if v == "" {
		return defContentTypeOptions.fail(nil, "The response has no X-Content-Type-Options: nosniff header.", "missing")
	}
	return defContentTypeOptions.fail(v, "X-Content-Type-Options should be nosniff.", "invalid")
}

package fetch

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/andybalholm/brotli"
	"golang.org/x/net/html/charset"

	"github.com/pinsight/pinsight/domain/webpage"
)

// body is a response body as read.
type body struct {
	body      []byte
	wire      int64
	truncated bool
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// readBody reads at most limit decoded bytes of resp, undoing the content
// coding and converting text to UTF-8. A body cut by the cap, or by an error
// midway (deadline, corrupt stream), keeps what was read and is marked
// truncated.
func readBody(resp *http.Response, limit int64) body {
	wire := &countingReader{r: resp.Body}
	r, err := decoder(resp.Header.Get("Content-Encoding"), wire)
	if err != nil {
		return body{wire: wire.n, truncated: true}
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	out := body{body: b, truncated: err != nil}
	if int64(len(b)) > limit {
		out.body, out.truncated = b[:limit], true
	}
	out.wire = wire.n
	out.body = toUTF8(out.body, resp.Header.Get("Content-Type"), out.truncated)
	return out
}

// decoder undoes one content coding; unknown codings pass through.
func decoder(coding string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(coding)) {
	case "gzip", "x-gzip":
		return gzip.NewReader(r)
	case "br":
		return brotli.NewReader(r), nil
	case "deflate":
		// RFC 9110 deflate is zlib-wrapped, but some servers send raw
		// deflate: tell them apart by the zlib header.
		br := bufio.NewReader(r)
		if h, err := br.Peek(2); err == nil && (uint16(h[0])<<8|uint16(h[1]))%31 == 0 && h[0]&0x0f == 8 {
			return zlib.NewReader(br)
		}
		return flate.NewReader(br), nil
	}
	return r, nil
}

// isText reports whether a Content-Type (possibly empty) is text the
// analyser reads.
func isText(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return contentType == ""
	}
	return strings.HasPrefix(mt, "text/") || strings.HasSuffix(mt, "+xml") || strings.HasSuffix(mt, "/xml") || mt == "application/xhtml+xml"
}

// toUTF8 converts a text body to UTF-8 from the charset its Content-Type,
// BOM or <meta> declares (or, failing those, what it looks like).
func toUTF8(b []byte, contentType string, truncated bool) []byte {
	if !isText(contentType) || len(b) == 0 {
		return b
	}
	enc, name, certain := charset.DetermineEncoding(b, contentType)
	switch {
	case name == "utf-8":
		if truncated {
			b = trimPartialRune(b)
		}
		if bom := "\xef\xbb\xbf"; strings.HasPrefix(string(b[:min(3, len(b))]), bom) {
			b = b[3:]
		}
		return b
	case !certain && name == "windows-1252" && ascii(b):
		return b // ASCII reads the same in both
	}
	if out, err := enc.NewDecoder().Bytes(b); err == nil {
		return out
	}
	return b
}

func ascii(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// trimPartialRune drops an incomplete UTF-8 sequence the cap cut in two.
func trimPartialRune(b []byte) []byte {
	for i := 1; i <= 3 && i <= len(b); i++ {
		if c := b[len(b)-i]; utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}

// isHTML reports whether a response is an HTML document.
func isHTML(r *webpage.Response) bool {
	ct := ""
	if v := r.Header["Content-Type"]; len(v) > 0 {
		ct = v[0]
	}
	if ct == "" {
		ct = http.DetectContentType(r.Body)
	}
	mt, _, _ := mime.ParseMediaType(ct)
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// isTLSError reports whether err comes from certificate verification or the
// TLS handshake.
func isTLSError(err error) bool {
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	var alert tls.AlertError
	var record tls.RecordHeaderError
	return errors.As(err, &unknown) || errors.As(err, &hostname) || errors.As(err, &invalid) ||
		errors.As(err, &verify) || errors.As(err, &alert) || errors.As(err, &record)
}

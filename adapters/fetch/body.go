package fetch

import (
	"bufio"
	"bytes"
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
	"golang.org/x/text/encoding"

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
	size := int64(512) // io.ReadAll's first buffer
	if r == io.Reader(wire) && resp.ContentLength > 0 {
		size = min(resp.ContentLength, limit, maxSizeHint) + 1 // +1: the read that meets the end
	}
	b, err := readAll(io.LimitReader(r, limit+1), int(size))
	out := body{body: b, truncated: err != nil}
	if int64(len(b)) > limit {
		out.body, out.truncated = b[:limit], true
	}
	out.wire = wire.n
	out.body = toUTF8(out.body, resp.Header.Get("Content-Type"), out.truncated)
	return out
}

// maxSizeHint bounds the buffer a Content-Length makes readBody allocate
// before the body arrives.
const maxSizeHint = 1 << 20

// readAll is io.ReadAll with a first buffer of size bytes: a body whose
// length is known is read into one allocation.
func readAll(r io.Reader, size int) ([]byte, error) {
	b := make([]byte, 0, size)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // let append grow it
		}
	}
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
	mt, _, err := mediaType(contentType)
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
	var enc encoding.Encoding
	var name string
	var certain bool
	if _, cs, err := mediaType(contentType); err == nil && strings.EqualFold(cs, "utf-8") && !bytes.HasPrefix(b, utf16BE) && !bytes.HasPrefix(b, utf16LE) {
		name = "utf-8" // what DetermineEncoding finds: no BOM of another encoding, the charset declared
	} else {
		enc, name, certain = charset.DetermineEncoding(b, contentType)
	}
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
	mt, _, _ := mediaType(ct)
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// The byte order marks of UTF-16, which charset.DetermineEncoding reads
// before the declared charset.
var utf16BE, utf16LE = []byte{0xfe, 0xff}, []byte{0xff, 0xfe}

// mediaType is mime.ParseMediaType's media type of a Content-Type, and
// its charset parameter as written; the Content-Types servers send most
// are answered without parsing (or a map allocated).
func mediaType(contentType string) (mt, charset string, err error) {
	switch contentType {
	case "text/html; charset=utf-8", "text/html;charset=utf-8":
		return "text/html", "utf-8", nil
	case "text/html; charset=UTF-8", "text/html;charset=UTF-8":
		return "text/html", "UTF-8", nil
	case "text/html":
		return "text/html", "", nil
	case "text/plain; charset=utf-8":
		return "text/plain", "utf-8", nil
	case "application/xml", "text/xml":
		return contentType, "", nil
	}
	mt, params, err := mime.ParseMediaType(contentType)
	return mt, params["charset"], err
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

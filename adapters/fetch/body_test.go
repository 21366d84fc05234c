package fetch_test

import (
	"bytes"
	"io"
	"mime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/pinsight/pinsight/adapters/fetch"
)

// TestMediaType: the media type and charset of a Content-Type, answered
// without parsing for the common ones, are mime.ParseMediaType's.
func TestMediaType(t *testing.T) {
	for _, ct := range []string{
		"text/html; charset=utf-8", "text/html;charset=utf-8", "text/html; charset=UTF-8", "text/html;charset=UTF-8", "text/html",
		"text/plain; charset=utf-8", "application/xml", "text/xml", "", "TEXT/HTML", "text/html; charset=\"utf-8\"", "text/html; charset",
		"application/xhtml+xml; charset=iso-8859-1", "text/html; charset=utf-8; charset=latin1", "garbage",
	} {
		mt, cs, err := fetch.MediaType(ct)
		wantMT, params, wantErr := mime.ParseMediaType(ct)
		if mt != wantMT || cs != params["charset"] || (err == nil) != (wantErr == nil) {
			t.Errorf("MediaType(%q) = %q, %q, %v; mime: %q, %q, %v", ct, mt, cs, err, wantMT, params["charset"], wantErr)
		}
	}
}

// TestReadAll: reading with a first buffer of any size gives what
// io.ReadAll gives, short reads included; a read that fails midway keeps
// what came before (how much came depends on the reads' sizes, as on a
// network).
func TestReadAll(t *testing.T) {
	data := []byte(strings.Repeat("0123456789", 300))
	readers := map[string]func() io.Reader{
		"whole":    func() io.Reader { return bytes.NewReader(data) },
		"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(data)) },
		"half":     func() io.Reader { return iotest.HalfReader(bytes.NewReader(data)) },
		"data err": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(data)) },
		"limited":  func() io.Reader { return io.LimitReader(bytes.NewReader(data), 1001) },
		"empty":    func() io.Reader { return bytes.NewReader(nil) },
	}
	got, err := fetch.ReadAll(iotest.TimeoutReader(bytes.NewReader(data)), 100)
	if !bytes.Equal(got, data[:100]) || err != iotest.ErrTimeout {
		t.Errorf("a failed read: %d bytes, %v; want the first 100, %v", len(got), err, iotest.ErrTimeout)
	}
	for name, r := range readers {
		want, wantErr := io.ReadAll(r())
		for _, size := range []int{1, 512, len(data), len(data) + 1, 2 * len(data)} {
			got, err := fetch.ReadAll(r(), size)
			if !bytes.Equal(got, want) || err != wantErr {
				t.Errorf("%s, size %d: %d bytes, %v; io.ReadAll: %d bytes, %v", name, size, len(got), err, len(want), wantErr)
			}
		}
	}
}

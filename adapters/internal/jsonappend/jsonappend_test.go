package jsonappend

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"math"
	"strings"
	"testing"
)

// marshal is what encoding/json writes for v without HTML escaping.
func marshal(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

func TestStringIsEncodingJSONs(t *testing.T) {
	for _, s := range []string{"", "plain", `q"uote\back`, "<a&b>", "\x00\x01\b\f\n\r\t\x1f\x7f",
		"bad \xff utf8 \xc3", "line\u2028sep\u2029", "नई दिल्ली", "😀"} {
		if got, want := string(String(nil, s)), marshal(t, s); got != want {
			t.Errorf("String(%q) = %s, want %s", s, got, want)
		}
	}
	if got := string(OptString(nil, nil)); got != "null" {
		t.Errorf("OptString(nil) = %s, want null", got)
	}
}

// TestEveryByteIsEncodingJSONs checks each byte alone and between plain
// text against encoding/json.
func TestEveryByteIsEncodingJSONs(t *testing.T) {
	for b := range 256 {
		for _, s := range []string{string([]byte{byte(b)}), "ab" + string([]byte{byte(b)}) + "cd"} {
			if got, want := string(String(nil, s)), marshal(t, s); got != want {
				t.Errorf("String(%q) = %s, want %s", s, got, want)
			}
		}
	}
}

func TestFloatIsEncodingJSONs(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -2.5, 28.613939, 77.209021, 1e-6, 9.99e-7,
		1e20, 1e21, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64, 1e-9} {
		if got, want := string(Float(nil, f)), marshal(t, f); got != want {
			t.Errorf("Float(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestSlogStringIsSlogs(t *testing.T) {
	for _, s := range []string{"", "plain", `q"uote\back`, "<a&b>", "\x00\x01\b\f\n\r\t\x1f\x7f",
		"bad \xff utf8 \xc3", "line\u2028sep\u2029", "नई दिल्ली", "😀"} {
		var b bytes.Buffer
		slog.New(slog.NewJSONHandler(&b, &slog.HandlerOptions{ReplaceAttr: dropBuiltins})).Info("", "k", s)
		want := strings.TrimSuffix(strings.TrimPrefix(b.String(), `{"k":`), "}\n")
		if got := string(SlogString(nil, s)); got != want {
			t.Errorf("SlogString(%q) = %s, want %s", s, got, want)
		}
	}
}

// dropBuiltins leaves only a record's own attributes.
func dropBuiltins(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey || a.Key == slog.MessageKey) {
		return slog.Attr{}
	}
	return a
}

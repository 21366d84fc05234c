package httpapi

import (
	"io"
	"strconv"
	"sync"

	"github.com/danielgtaylor/huma/v2"
)

// marshalJSON is the API's JSON encoder: answers on hot paths (nearby) are
// appended by hand, without reflection, in exactly the bytes encoding/json
// writes for them (HTML characters unescaped, as huma sets it, and a
// trailing newline); everything else goes through huma's encoder.
func marshalJSON(w io.Writer, v any) error {
	buf := jsonBuffers.Get().(*[]byte)
	b, ok := appendAnswer((*buf)[:0], v)
	if !ok {
		jsonBuffers.Put(buf)
		return huma.DefaultJSONFormat.Marshal(w, v)
	}
	_, err := w.Write(append(b, '\n'))
	if cap(b) <= maxPooledJSON {
		*buf = b
		jsonBuffers.Put(buf)
	}
	return err
}

// maxPooledJSON bounds the buffers kept for reuse: a rare huge answer does
// not stay allocated.
const maxPooledJSON = 64 << 10

// jsonBuffers are reused encoding buffers.
var jsonBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

// appendAnswer appends v when it is an answer with a hand-written encoding,
// reporting whether it was.
func appendAnswer(dst []byte, v any) ([]byte, bool) {
	switch e := v.(type) {
	case envelope[nearbyData]:
		dst = append(dst, `{"success":`...)
		dst = strconv.AppendBool(dst, e.Success)
		dst = append(dst, `,"data":`...)
		return append(e.Data.appendJSON(dst), '}'), true
	}
	return dst, false
}

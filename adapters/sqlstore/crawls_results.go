package sqlstore

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/s2"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
)

// A crawled page's audit is stored in its results column as a JSON string:
// auditDictMarker, a colon, and the base64 of its JSON compressed by S2
// (klauspost/compress's Snappy extension) with the frozen dictionary of
// that marker (crawls_results_dict.go). Audits of different pages share
// almost all of their text (check ids, titles, messages, advice), which
// the dictionary holds: an audit of the fixture crawl takes about a fifth
// of what it took compressed alone, for fewer microseconds. decodeResults
// also reads what was written before: the base64 of S2 without a
// dictionary (a string without a marker), and the JSON object itself.

// encodeBuffers are the JSON, the compressed JSON and its base64 of an
// audit being encoded, reused: a crawl encodes thousands.
type encodeBuffers struct {
	json   []byte
	packed []byte
	b64    []byte
}

var encodePool = sync.Pool{New: func() any { return new(encodeBuffers) }}

// encodeResults is res as stored in a crawled page's results column.
func encodeResults(res pagecheck.Results) (string, error) {
	bufs := encodePool.Get().(*encodeBuffers)
	defer encodePool.Put(bufs)
	raw, err := appendResultsJSON(bufs.json[:0], res)
	if err != nil {
		return "", err
	}
	bufs.json = raw
	if n := s2.MaxEncodedLen(len(raw)); cap(bufs.packed) < n {
		bufs.packed = make([]byte, n)
	}
	packed := auditDict.EncodeBetter(bufs.packed[:cap(bufs.packed)], raw)
	if n := base64.StdEncoding.EncodedLen(len(packed)); cap(bufs.b64) < n {
		bufs.b64 = make([]byte, n)
	}
	b64 := bufs.b64[:base64.StdEncoding.EncodedLen(len(packed))]
	base64.StdEncoding.Encode(b64, packed)
	var b strings.Builder
	b.Grow(len(auditDictMarker) + len(b64) + 3)
	b.WriteByte('"')
	b.WriteString(auditDictMarker)
	b.WriteByte(':')
	b.Write(b64)
	b.WriteByte('"')
	return b.String(), nil
}

// encodeAllResults encodes the pages' results ("{}" when none), several
// at once: a batch's are ready before its transaction starts.
func encodeAllResults(pages []ports.FetchedPage) ([]string, error) {
	out := make([]string, len(pages))
	errs := make([]error, len(pages))
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(pages)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(pages); i = int(next.Add(1) - 1) {
				out[i] = "{}"
				if pages[i].Results != nil {
					out[i], errs[i] = encodeResults(pages[i].Results)
				}
			}
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// decodeBuffers are the base64, the compressed and the plain JSON of an
// audit being decoded, reused: json.Unmarshal copies what it keeps.
type decodeBuffers struct {
	b64    []byte
	packed []byte
	json   []byte
}

var decodePool = sync.Pool{New: func() any { return new(decodeBuffers) }}

// decodeResults reads a crawled page's results column into res.
func decodeResults(text string, res *pagecheck.Results) error {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, `"`) {
		return fromJSON(text, res)
	}
	s, err := storedString(text)
	if err != nil {
		return err
	}
	var dict *s2.Dict // nil: S2 without a dictionary
	if marker, rest, ok := strings.Cut(s, ":"); ok {
		if dict = auditDicts[marker]; dict == nil {
			return fmt.Errorf("sqlstore: stored results have an unknown dictionary %q", marker)
		}
		s = rest
	}
	bufs := decodePool.Get().(*decodeBuffers)
	defer decodePool.Put(bufs)
	bufs.b64 = append(bufs.b64[:0], s...)
	packed, err := base64.StdEncoding.AppendDecode(bufs.packed[:0], bufs.b64)
	if err != nil {
		return fmt.Errorf("sqlstore: stored results do not decode: %w", err)
	}
	bufs.packed = packed
	var raw []byte
	if dict != nil {
		raw, err = dict.Decode(bufs.json[:cap(bufs.json)], packed)
	} else {
		raw, err = s2.Decode(bufs.json[:cap(bufs.json)], packed)
	}
	if err != nil {
		return fmt.Errorf("sqlstore: stored results do not decode: %w", err)
	}
	bufs.json = raw
	if err := json.Unmarshal(raw, res); err != nil {
		return fmt.Errorf("sqlstore: stored %T does not decode: %w", res, err)
	}
	return nil
}

// storedString is the JSON string text holds: read in place when it has
// no escape (base64 and the markers need none), else by encoding/json.
func storedString(text string) (string, error) {
	if len(text) >= 2 && text[len(text)-1] == '"' && !strings.ContainsAny(text[1:len(text)-1], `"\`) {
		return text[1 : len(text)-1], nil
	}
	var s string
	if err := fromJSON(text, &s); err != nil {
		return "", err
	}
	return s, nil
}

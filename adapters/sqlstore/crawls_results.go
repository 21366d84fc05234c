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

// A crawled page's audit is stored in crawl_audits' results column as
// bytes: auditDictMarker, a colon, and its JSON compressed by S2
// (klauspost/compress's Snappy extension, in its fast mode) with the
// frozen dictionary of that marker (crawls_results_dict.go). Audits of
// different pages share almost all of their text (check ids, titles,
// messages, advice), which the dictionary holds: an audit of the fixture
// crawl (about 10 KB of JSON) takes about 840 bytes, 5,600 as the base64
// of S2 without a dictionary. The "better" mode would store a quarter
// less for about twice the encoding time (a crawl encodes thousands);
// either decodes with Decode, so the mode may change without a new marker. decodeResults
// also reads what was written before: a JSON string holding the base64
// of S2 (with a marker and a colon first when a dictionary compressed
// it), and the JSON object itself.

// encodeBuffers are the JSON and the compressed JSON of an audit being
// encoded, reused: a crawl encodes thousands.
type encodeBuffers struct {
	json   []byte
	packed []byte
}

var encodePool = sync.Pool{New: func() any { return new(encodeBuffers) }}

// encodeResults is res as stored in a crawled page's audit.
func encodeResults(res pagecheck.Results) ([]byte, error) {
	bufs := encodePool.Get().(*encodeBuffers)
	defer encodePool.Put(bufs)
	raw, err := appendResultsJSON(bufs.json[:0], res)
	if err != nil {
		return nil, err
	}
	bufs.json = raw
	if n := s2.MaxEncodedLen(len(raw)); cap(bufs.packed) < n {
		bufs.packed = make([]byte, n)
	}
	packed := auditDict.Encode(bufs.packed[:cap(bufs.packed)], raw)
	out := make([]byte, 0, len(auditDictMarker)+1+len(packed))
	return append(append(append(out, auditDictMarker...), ':'), packed...), nil
}

// encodeAllResults encodes the pages' results (nil when none), several at
// once: a batch's are ready before its transaction starts.
func encodeAllResults(pages []ports.FetchedPage) ([][]byte, error) {
	out := make([][]byte, len(pages))
	errs := make([]error, len(pages))
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(pages)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(pages); i = int(next.Add(1) - 1) {
				if pages[i].Results != nil {
					out[i], errs[i] = encodeResults(pages[i].Results)
				}
			}
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// decodeBuffers are the stored bytes (or base64), the compressed and the
// plain JSON of an audit being decoded, reused: json.Unmarshal copies what
// it keeps.
type decodeBuffers struct {
	stored []byte
	packed []byte
	json   []byte
}

var decodePool = sync.Pool{New: func() any { return new(decodeBuffers) }}

// decodeResults reads a crawled page's stored audit (encodeResults' bytes,
// or the JSON written before) into res.
func decodeResults(text string, res *pagecheck.Results) error {
	bufs := decodePool.Get().(*decodeBuffers)
	defer decodePool.Put(bufs)
	var dict *s2.Dict // nil: S2 without a dictionary
	var packed []byte
	if marker, _, ok := strings.Cut(text[:min(len(text), 8)], ":"); ok && strings.HasPrefix(marker, "d") {
		if dict = auditDicts[marker]; dict == nil {
			return fmt.Errorf("sqlstore: stored results have an unknown dictionary %q", marker)
		}
		bufs.stored = append(bufs.stored[:0], text[len(marker)+1:]...)
		packed = bufs.stored
	} else {
		text = strings.TrimSpace(text)
		if !strings.HasPrefix(text, `"`) {
			return fromJSON(text, res)
		}
		var err error
		if dict, packed, err = unpackString(text, bufs); err != nil {
			return err
		}
	}
	var raw []byte
	var err error
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

// unpackString is the dictionary (nil for none) and the compressed audit
// of a JSON string stored before: the base64 of S2, after a marker and a
// colon when a dictionary compressed it.
func unpackString(text string, bufs *decodeBuffers) (*s2.Dict, []byte, error) {
	s, err := storedString(text)
	if err != nil {
		return nil, nil, err
	}
	var dict *s2.Dict
	if marker, rest, ok := strings.Cut(s, ":"); ok {
		if dict = auditDicts[marker]; dict == nil {
			return nil, nil, fmt.Errorf("sqlstore: stored results have an unknown dictionary %q", marker)
		}
		s = rest
	}
	bufs.stored = append(bufs.stored[:0], s...)
	packed, err := base64.StdEncoding.AppendDecode(bufs.packed[:0], bufs.stored)
	if err != nil {
		return nil, nil, fmt.Errorf("sqlstore: stored results do not decode: %w", err)
	}
	bufs.packed = packed
	return dict, packed, nil
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

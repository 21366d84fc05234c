package sqlstore

import (
	"encoding/base64"
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

// A crawled page's audit is stored in its results column as a JSON string
// holding the base64 of its S2-compressed JSON (S2: klauspost/compress's
// Snappy extension, in its fast mode, which costs a crawl less than the
// "better" one for a text under a tenth longer; well under half of the
// JSON's size for a few microseconds: a crawl writes thousands, and the
// engine checks, parses and logs every byte), or, as written before, as
// the JSON object itself; decodeResults reads both (and either mode).

// encodeBuffers are the JSON and the compressed JSON of an audit being
// encoded, reused: a crawl encodes thousands.
type encodeBuffers struct {
	json   []byte
	packed []byte
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
	packed := s2.Encode(bufs.packed[:cap(bufs.packed)], raw)
	var b strings.Builder
	b.Grow(base64.StdEncoding.EncodedLen(len(packed)) + 2)
	b.WriteByte('"')
	w := base64.NewEncoder(base64.StdEncoding, &b)
	_, _ = w.Write(packed) // a strings.Builder does not fail
	_ = w.Close()
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

// decodeResults reads a crawled page's results column into res.
func decodeResults(text string, res *pagecheck.Results) error {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, `"`) {
		return fromJSON(text, res)
	}
	var b64 string
	if err := fromJSON(text, &b64); err != nil {
		return err
	}
	packed, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return fmt.Errorf("sqlstore: stored results do not decode: %w", err)
	}
	raw, err := s2.Decode(nil, packed)
	if err != nil {
		return fmt.Errorf("sqlstore: stored results do not decode: %w", err)
	}
	return fromJSON(string(raw), res)
}

package sqlstore

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
)

// A crawled page's audit is stored in its results column as a JSON string
// holding the base64 of its gzipped JSON (about a fifth of the JSON's
// size: a crawl writes thousands, and the engine checks, parses and logs
// every byte), or, as written before, as the JSON object itself;
// decodeResults reads both.

// gzipWriters are reusable gzip writers (each holds a large window).
var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	return w
}}

// encodeResults is res as stored in a crawled page's results column.
func encodeResults(res pagecheck.Results) (string, error) {
	raw, err := json.Marshal(res)
	if err != nil {
		return "", fmt.Errorf("sqlstore: encode results: %w", err)
	}
	var zipped bytes.Buffer
	w := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(w)
	w.Reset(&zipped)
	if _, err := w.Write(raw); err != nil {
		return "", fmt.Errorf("sqlstore: compress results: %w", err)
	}
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("sqlstore: compress results: %w", err)
	}
	var b strings.Builder
	b.Grow(base64.StdEncoding.EncodedLen(zipped.Len()) + 2)
	b.WriteByte('"')
	enc := base64.NewEncoder(base64.StdEncoding, &b)
	_, _ = enc.Write(zipped.Bytes())
	_ = enc.Close()
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
	zipped, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return fmt.Errorf("sqlstore: stored results do not decode: %w", err)
	}
	r, err := gzip.NewReader(bytes.NewReader(zipped))
	if err != nil {
		return fmt.Errorf("sqlstore: stored results do not decode: %w", err)
	}
	if err := json.NewDecoder(r).Decode(res); err != nil {
		return fmt.Errorf("sqlstore: stored results do not decode: %w", err)
	}
	return nil
}

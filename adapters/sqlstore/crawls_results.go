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

// A crawled page's audit is stored in its results column as a JSON string
// holding the base64 of its S2-compressed JSON (S2: klauspost/compress's
// Snappy extension, in its fast mode, which costs a crawl less than the
// "better" one for a text under a tenth longer; well under half of the
// JSON's size for a few microseconds: a crawl writes thousands, and the
// engine checks, parses and logs every byte), or, as written before, as
// the JSON object itself; decodeResults reads both (and either mode).

// encodeResults is res as stored in a crawled page's results column.
func encodeResults(res pagecheck.Results) (string, error) {
	raw, err := json.Marshal(res)
	if err != nil {
		return "", fmt.Errorf("sqlstore: encode results: %w", err)
	}
	packed := s2.Encode(nil, raw)
	b := make([]byte, base64.StdEncoding.EncodedLen(len(packed))+2)
	b[0], b[len(b)-1] = '"', '"'
	base64.StdEncoding.Encode(b[1:len(b)-1], packed)
	return string(b), nil
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

package httpapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
)

func TestBodyCache(t *testing.T) {
	c := NewBodyCache(0)
	big := []byte(`{"data":"` + strings.Repeat("a", 2000) + `"}`)
	got, epoch := c.get("v1", "lookup/110001")
	if got != nil {
		t.Fatal("an empty cache answered")
	}
	c.put("v1", "lookup/110001", "110001", epoch, "application/json", big, "")
	got, _ = c.get("v1", "lookup/110001")
	if got == nil || !bytes.Equal(got.Body, big) || got.ContentType != "application/json" {
		t.Fatalf("stored answer = %+v", got)
	}
	zr, err := gzip.NewReader(bytes.NewReader(got.Gzip))
	if err != nil {
		t.Fatal(err)
	}
	if plain, _ := io.ReadAll(zr); !bytes.Equal(plain, big) || len(got.Gzip) >= len(big) {
		t.Errorf("gzip variant: %d bytes, decompresses to %d", len(got.Gzip), len(plain))
	}
	_, epoch = c.get("v1", "small")
	c.put("v1", "small", "", epoch, "application/json", []byte(`{}`), "")
	if s, _ := c.get("v1", "small"); s == nil || s.Gzip != nil {
		t.Errorf("a small body = %+v, want stored without a gzip variant", s)
	}

	// A new dataset version drops every entry at once; the old version's
	// late Put is not stored.
	if got, epoch = c.get("v2", "lookup/110001"); got != nil {
		t.Fatal("the previous dataset's answer was served")
	}
	c.put("v1", "lookup/110001", "110001", epoch, "application/json", big, "")
	if got, _ = c.get("v2", "lookup/110001"); got != nil {
		t.Fatal("a late answer of the previous dataset was stored")
	}

	// Invalidation per key and per tag; an answer computed before an
	// invalidation is not stored after it.
	for _, k := range []string{"lookup/110001", "details/110001", "lookup/110002"} {
		_, e := c.get("v2", k)
		c.put("v2", k, k[len(k)-6:], e, "application/json", big, "")
	}
	c.invalidateTag("110001")
	for k, want := range map[string]bool{"lookup/110001": false, "details/110001": false, "lookup/110002": true} {
		if got, _ := c.get("v2", k); (got != nil) != want {
			t.Errorf("after InvalidateTag(110001), %s cached = %v", k, got != nil)
		}
	}
	_, stale := c.get("v2", "lookup/110003")
	c.invalidate("lookup/110002")
	c.put("v2", "lookup/110003", "110003", stale, "application/json", big, "")
	if got, _ := c.get("v2", "lookup/110002"); got != nil {
		t.Error("Invalidate left the entry")
	}
	if got, _ := c.get("v2", "lookup/110003"); got != nil {
		t.Error("an answer computed before an invalidation was stored after it")
	}
}

// TestBodyCacheBound: the cache never holds more than its budget.
func TestBodyCacheBound(t *testing.T) {
	c := NewBodyCache(64 << 10)
	body := []byte(strings.Repeat("x", 900))
	for i := range 1000 {
		k := strings.Repeat("k", i%7) + string(rune('a'+i%26)) + strings.Repeat("z", i/26)
		_, e := c.get("v", k)
		c.put("v", k, "", e, "text/plain", body, "")
		if c.Bytes() > 64<<10 {
			t.Fatalf("after %d answers the cache holds %d bytes", i+1, c.Bytes())
		}
	}
	if c.Bytes() < 32<<10 {
		t.Errorf("the cache holds only %d bytes of its 64 KiB", c.Bytes())
	}
}

// TestBodyCacheOversized: an answer larger than the whole cache is not
// stored and evicts nothing.
func TestBodyCacheOversized(t *testing.T) {
	c := NewBodyCache(8 << 10)
	_, e := c.get("v", "small")
	c.put("v", "small", "", e, "text/plain", []byte("hello"), "")
	before := c.Bytes()
	_, e = c.get("v", "huge")
	c.put("v", "huge", "", e, "text/plain", []byte(strings.Repeat("x", 16<<10)), "")
	if got, _ := c.get("v", "huge"); got != nil {
		t.Error("an answer larger than the cache was stored")
	}
	if got, _ := c.get("v", "small"); got == nil || c.Bytes() != before {
		t.Errorf("storing an oversized answer evicted others: small kept %v, %d bytes (was %d)", got != nil, c.Bytes(), before)
	}
}

package httpapi

import (
	"bytes"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
)

// DefaultBodyCacheBytes bounds a BodyCache made by NewBodyCache(0): the
// bodies and their gzip variants together.
const DefaultBodyCacheBytes = 64 << 20

// BodyCache holds the encoded answers of static postal reads (a PIN
// lookup, a state, a district, the dataset...), each with its gzip
// variant, so a repeated request is served without looking up, encoding or
// compressing anything.
//
// Entries belong to one dataset version: the first Get or Put naming a
// newer version replaces every entry at once (one atomic swap), so an
// answer of the previous dataset is never served after the new one is.
//
// Answers that change within a dataset version (live counts of a PIN's
// offices, say) are invalidated per key with invalidate, or for every
// key sharing a tag (the PIN of a PIN's operations) with invalidateTag;
// an answer computed before an invalidation is not stored after it
// (Put takes the epoch Get returned), and an ETag built for such an
// answer must then name the per-key version too (see cacheable).
type BodyCache struct {
	maxBytes int64
	gen      atomic.Pointer[cacheGeneration]
}

// cacheGeneration is the cache of one dataset version. Its entries are a
// map behind a read-write lock rather than a sync.Map, so a lookup needs
// no key string: cacheable looks up with bytes it appended on the stack.
type cacheGeneration struct {
	version string
	mu      sync.RWMutex
	entries map[string]*cachedBody
	bytes   atomic.Int64
	epoch   atomic.Uint64 // bumped by every invalidation
}

// cachedBody is one encoded answer, with the values of the headers it is
// served with (header values are replaced, never edited in place, so
// every answer may share them).
type cachedBody struct {
	ContentType string
	Body        []byte
	Gzip        []byte // nil: too small to be worth compressing
	tag         string

	contentType, bodyLength, gzipLength []string // header values
	etag                                []string // the ETag of the key, when put names one
}

func (b *cachedBody) size() int64 { return int64(len(b.Body) + len(b.Gzip) + len(b.tag) + 64) }

// NewBodyCache returns an empty cache holding at most maxBytes of bodies
// (0: DefaultBodyCacheBytes). Beyond, storing an answer evicts others.
func NewBodyCache(maxBytes int64) *BodyCache {
	if maxBytes <= 0 {
		maxBytes = DefaultBodyCacheBytes
	}
	c := &BodyCache{maxBytes: maxBytes}
	c.gen.Store(&cacheGeneration{entries: map[string]*cachedBody{}})
	return c
}

// generation returns the entries of version, replacing older ones.
func (c *BodyCache) generation(version string) *cacheGeneration {
	for {
		g := c.gen.Load()
		if g.version == version {
			return g
		}
		if c.gen.CompareAndSwap(g, &cacheGeneration{version: version, entries: map[string]*cachedBody{}}) {
			return c.gen.Load()
		}
	}
}

// get returns the answer stored for key under the dataset version, and
// the epoch to hand to Put when there is none.
func (c *BodyCache) get(version, key string) (*cachedBody, uint64) {
	return c.lookup(version, []byte(key))
}

// lookup is get with the key in bytes: the map index converts them
// without a copy.
func (c *BodyCache) lookup(version string, key []byte) (*cachedBody, uint64) {
	g := c.generation(version)
	epoch := g.epoch.Load()
	g.mu.RLock()
	e := g.entries[string(key)]
	g.mu.RUnlock()
	return e, epoch
}

// put stores an answer for key under the dataset version, with its gzip
// variant when it is large enough (middleware.GzipMinBytes), unless the
// cache was invalidated since the Get that returned epoch (the answer may
// then be stale) or the dataset moved on: then nothing is copied or
// compressed. An answer larger than the whole cache is not stored either,
// and evicts nothing. The tag (e.g. the PIN) groups keys for InvalidateTag.
//
// etag, when not "", is the ETag the key names, served with the entry.
func (c *BodyCache) put(version, key, tag string, epoch uint64, contentType string, body []byte, etag string) {
	g := c.gen.Load()
	if g.version != version || g.epoch.Load() != epoch {
		return
	}
	e := &cachedBody{ContentType: contentType, Body: bytes.Clone(body), tag: tag,
		contentType: []string{contentType}, bodyLength: []string{strconv.Itoa(len(body))}}
	if etag != "" {
		e.etag = []string{etag}
	}
	if len(body) >= middleware.GzipMinBytes {
		e.Gzip = gzipBytes(body)
		e.gzipLength = []string{strconv.Itoa(len(e.Gzip))}
	}
	if e.size() > c.maxBytes {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.epoch.Load() != epoch { // invalidated while compressing
		return
	}
	for g.bytes.Load()+e.size() > c.maxBytes {
		if !g.evictOne() {
			return
		}
	}
	if _, ok := g.entries[key]; !ok {
		g.entries[key] = e
		g.bytes.Add(e.size())
	}
}

// evictOne drops one entry (any), reporting whether there was one. The
// caller holds g.mu.
func (g *cacheGeneration) evictOne() bool {
	for k, e := range g.entries {
		delete(g.entries, k)
		g.bytes.Add(-e.size())
		return true
	}
	return false
}

// invalidate drops the answer stored for key, whatever its version.
func (c *BodyCache) invalidate(key string) {
	g := c.gen.Load()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.epoch.Add(1)
	if e, ok := g.entries[key]; ok {
		delete(g.entries, key)
		g.bytes.Add(-e.size())
	}
}

// invalidateTag drops every answer stored with tag (every cached answer
// about one PIN, for the PIN's tag).
func (c *BodyCache) invalidateTag(tag string) {
	g := c.gen.Load()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.epoch.Add(1)
	for k, e := range g.entries {
		if e.tag == tag {
			delete(g.entries, k)
			g.bytes.Add(-e.size())
		}
	}
}

// Bytes reports the size of the stored answers, for metrics.
func (c *BodyCache) Bytes() int64 { return c.gen.Load().bytes.Load() }

// gzipWriters are reused: a writer's tables are large next to a body.
var gzipWriters = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression); return w }}

// gzipBytes compresses a body once, at the default level (a better ratio
// than the edge's on-the-fly compression: it is served many times).
func gzipBytes(body []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(body) / 4)
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(&buf)
	_, _ = zw.Write(body)
	_ = zw.Close()
	zw.Reset(nil)
	gzipWriters.Put(zw)
	return buf.Bytes()
}

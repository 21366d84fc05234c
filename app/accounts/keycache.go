package accounts

import (
	"sync"
	"time"

	"github.com/pinsight/pinsight/domain/account"
)

// KeyCacheTTL is how long a verified key is trusted without asking the
// store again. Each store lookup marks the key used, so last_used_at is
// written at most once per KeyCacheTTL per key and instance, not once per
// request. A revocation through this process is forgotten at once
// (RevokeKey, Rotate); one through another instance must be passed to
// Forget (on Postgres, NOTIFY pinsight_keys does within milliseconds), or
// it is refused here after KeyCacheTTL at the latest.
const KeyCacheTTL = time.Minute

// keyCacheMax bounds the cache: beyond, the expired entries are dropped,
// and if that is not enough, all of them (the next requests ask the store).
const keyCacheMax = 100_000

// keyCache holds recently verified keys by hash.
type keyCache struct {
	mu     sync.Mutex
	byHash map[string]cachedKey
	hashOf map[int64]string // key ID -> hash, to forget by ID
	// epoch counts forgets: a lookup that began before one may have read a
	// key revoked since, and must not cache it.
	epoch uint64
}

type cachedKey struct {
	user    account.User
	key     account.APIKey
	expires time.Time
}

func newKeyCache() *keyCache {
	return &keyCache{byHash: map[string]cachedKey{}, hashOf: map[int64]string{}}
}

// get returns the live entry for hash or, on a miss, the epoch to give
// put.
func (c *keyCache) get(hash string, now time.Time) (cachedKey, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byHash[hash]
	if !ok || !now.Before(e.expires) {
		return cachedKey{}, c.epoch, false
	}
	return e, c.epoch, true
}

// put caches a verified key until now + KeyCacheTTL, unless something was
// forgotten since get returned epoch.
func (c *keyCache) put(u account.User, k account.APIKey, now time.Time, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if epoch != c.epoch {
		return
	}
	if len(c.byHash) >= keyCacheMax {
		for h, e := range c.byHash {
			if !now.Before(e.expires) {
				delete(c.byHash, h)
				delete(c.hashOf, e.key.ID)
			}
		}
		if len(c.byHash) >= keyCacheMax {
			clear(c.byHash)
			clear(c.hashOf)
		}
	}
	c.byHash[k.Hash] = cachedKey{user: u, key: k, expires: now.Add(KeyCacheTTL)}
	c.hashOf[k.ID] = k.Hash
}

// forget drops the key with that ID.
func (c *keyCache) forget(keyID int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	if h, ok := c.hashOf[keyID]; ok {
		delete(c.byHash, h)
		delete(c.hashOf, keyID)
	}
}

// forgetAll empties the cache.
func (c *keyCache) forgetAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	clear(c.byHash)
	clear(c.hashOf)
}

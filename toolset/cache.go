package toolset

import (
	"crypto/sha256"
	"encoding/binary"
	"sync"

	"github.com/toolsearch/toolsearch/catalog"
)

// Cache memoizes the normalization of tool definitions (schema rewrites
// and description cuts) across Build calls: a native list normalizes the
// whole catalog on every call, and decoding every schema costs ~20 ms for
// 500 tools. The caller that builds toolsets owns a Cache and passes it in
// Options.Cache; nothing in the package keeps one.
//
// Entries are keyed by a SHA-256 hash of everything a normalization
// depends on (the format's description limit, the tool's name, server,
// description and input schema), so a changed tool misses and an unchanged
// one hits whichever snapshot it comes from; a key costs 32 bytes whatever
// the size of the tool. The cache holds at most its capacity in two
// generations of half of it each: when the current generation is full it
// becomes the previous one (dropping the one before), and a hit in the
// previous generation moves to the current one. So the tools in use stay,
// and the tools of a replaced catalog age out within two fills.
//
// A Cache is safe for concurrent use. A nil *Cache caches nothing.
type Cache struct {
	mu        sync.Mutex
	half      int
	cur, prev map[cacheKey]normalization
	hits      uint64
	misses    uint64
}

// DefaultCacheEntries is the capacity NewCache gives for 0: 20,000
// normalizations hold a 10,000-tool catalog (Anthropic's deferred-tool
// limit) in both description limits (OpenAI's 1,024 characters, and none),
// at about 1 KB each.
const DefaultCacheEntries = 20000

// NewCache returns a cache holding at most capacity normalizations; 0 (or
// less) means DefaultCacheEntries, and a capacity under 2 is raised to 2.
func NewCache(capacity int) *Cache {
	if capacity <= 0 {
		capacity = DefaultCacheEntries
	}
	half := max(capacity/2, 1)
	return &Cache{half: half, cur: make(map[cacheKey]normalization), prev: map[cacheKey]normalization{}}
}

// CacheStats are a cache's counters since NewCache.
type CacheStats struct {
	// Entries is the number of normalizations held.
	Entries int
	// Hits and Misses count lookups.
	Hits, Misses uint64
}

// Stats returns the cache's counters; the zero value for a nil cache.
func (c *Cache) Stats() CacheStats {
	if c == nil {
		return CacheStats{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return CacheStats{Entries: len(c.cur) + len(c.prev), Hits: c.hits, Misses: c.misses}
}

// cacheKey is the SHA-256 of a normalization's inputs.
type cacheKey [sha256.Size]byte

// keyOf hashes limit and the tool fields normalization reads, each
// length-prefixed so that no two inputs share a key by concatenation.
func keyOf(t catalog.Tool, limit int) cacheKey {
	h := sha256.New()
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(limit))
	h.Write(n[:])
	for _, s := range []string{t.Name, t.Server, t.Description, string(t.InputSchema)} {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	var k cacheKey
	h.Sum(k[:0])
	return k
}

// normalized returns t's normalization for a format whose description
// limit is limit, from the cache when it holds it. The result is shared:
// callers do not modify it.
func (c *Cache) normalized(t catalog.Tool, limit int) normalization {
	if c == nil {
		return normalize(t, limit)
	}
	k := keyOf(t, limit)
	c.mu.Lock()
	n, ok := c.cur[k]
	if !ok {
		if n, ok = c.prev[k]; ok {
			c.putLocked(k, n)
		}
	}
	if ok {
		c.hits++
	} else {
		c.misses++
	}
	c.mu.Unlock()
	if ok {
		return n
	}
	n = normalize(t, limit)
	c.mu.Lock()
	c.putLocked(k, n)
	c.mu.Unlock()
	return n
}

// putLocked stores n under k in the current generation, turning it into
// the previous one first when it is full. c.mu is held.
func (c *Cache) putLocked(k cacheKey, n normalization) {
	if len(c.cur) >= c.half {
		c.prev, c.cur = c.cur, make(map[cacheKey]normalization, c.half)
	}
	c.cur[k] = n
}

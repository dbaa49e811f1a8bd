package search

import (
	"container/list"
	"sync"
)

// queryCache is an LRU cache of raw query vectors keyed by query text. It is
// safe for concurrent use; a nil *queryCache caches nothing.
type queryCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // front = most recent; values are *queryEntry
	byKey map[string]*list.Element
}

type queryEntry struct {
	key string
	vec []float32
}

// newQueryCache returns a cache of max entries, or nil when max < 1.
func newQueryCache(max int) *queryCache {
	if max < 1 {
		return nil
	}
	return &queryCache{max: max, order: list.New(), byKey: make(map[string]*list.Element, max)}
}

// get returns the cached vector of key. Callers must not modify it.
func (c *queryCache) get(key string) ([]float32, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*queryEntry).vec, true
}

// put caches vec under key, evicting the least recently used entry when
// full.
func (c *queryCache) put(key string, vec []float32) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		el.Value.(*queryEntry).vec = vec
		c.order.MoveToFront(el)
		return
	}
	c.byKey[key] = c.order.PushFront(&queryEntry{key: key, vec: vec})
	if c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*queryEntry).key)
	}
}

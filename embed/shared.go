package embed

import (
	"context"
	"errors"
)

// SharedCache is a cache tier shared by a fleet of sidecars, below each
// one's local cache (store/postgres implements it). Vectors are keyed by
// the embedder's model identity (its ModelID, which names the model and
// its digest), the dimensions, and the cache key of the text (the SHA-256
// of its kind and text). Implementations must be safe for concurrent use
// and bound every call's time; an error makes Cached go on without the
// tier for that call.
type SharedCache interface {
	// Vectors returns the stored vectors of keys, nil where there is none.
	Vectors(ctx context.Context, model string, dims int, keys [][32]byte) ([][]float32, error)
	// StoreVectors writes computed vectors in one batch.
	StoreVectors(ctx context.Context, model string, dims int, keys [][32]byte, vecs [][]float32) error
	// DropVectors deletes stored vectors that a reader found unusable.
	DropVectors(ctx context.Context, model string, dims int, keys [][32]byte) error
}

// CacheShared puts a shared tier under the local cache: a text missing
// locally is looked up there before the inner embedder is asked, and what
// the inner embedder computed is written back in one batch per call. Its
// vectors are validated like the local file's records (right length,
// finite, not all-zero, unit length): a bad one is dropped from the tier
// with a log line and computed again. Queries go to the tier only when
// they are cached at all (CacheQueries).
func CacheShared(s SharedCache) CacheOption {
	return func(c *Cached) { c.shared = s }
}

// fromShared fills vecs (one per key) from the shared tier and returns the
// positions it could not fill, which the inner embedder must compute.
func (c *Cached) fromShared(ctx context.Context, keys [][32]byte, vecs [][]float32) []int {
	all := make([]int, len(keys))
	for i := range all {
		all[i] = i
	}
	if c.shared == nil {
		return all
	}
	got, err := c.shared.Vectors(ctx, c.model, c.dims, keys)
	if err == nil && len(got) != len(keys) {
		err = errSharedAnswer
	}
	if err != nil {
		c.mu.Lock()
		c.sharedErrors++
		c.mu.Unlock()
		c.log.Warn("embedding cache: the shared tier is unavailable; embedding here", "texts", len(keys), "error", err.Error())
		return all
	}
	var missing []int
	var bad [][32]byte
	for i, v := range got {
		if v == nil {
			missing = append(missing, i)
			continue
		}
		if err := checkCachedVector(v, c.dims); err != nil {
			bad = append(bad, keys[i])
			missing = append(missing, i)
			c.log.Warn("embedding cache: dropping an unusable vector of the shared tier; it is computed again", "model", c.model, "error", err.Error())
			continue
		}
		vecs[i] = v
	}
	c.mu.Lock()
	c.sharedHits += uint64(len(keys) - len(missing))
	c.sharedInvalid += uint64(len(bad))
	c.mu.Unlock()
	if len(bad) > 0 {
		if err := c.shared.DropVectors(ctx, c.model, c.dims, bad); err != nil {
			c.log.Warn("embedding cache: could not drop unusable vectors of the shared tier", "error", err.Error())
		}
	}
	return missing
}

// toShared writes the vectors computed at positions at back to the shared
// tier in one batch (all-zero vectors, "no signal", are never stored).
func (c *Cached) toShared(ctx context.Context, keys [][32]byte, vecs [][]float32, at []int) {
	if c.shared == nil {
		return
	}
	var ks [][32]byte
	var vs [][]float32
	for _, j := range at {
		if !isZero(vecs[j]) {
			ks, vs = append(ks, keys[j]), append(vs, vecs[j])
		}
	}
	if len(ks) == 0 {
		return
	}
	if err := c.shared.StoreVectors(ctx, c.model, c.dims, ks, vs); err != nil {
		c.mu.Lock()
		c.sharedErrors++
		c.mu.Unlock()
		c.log.Warn("embedding cache: writing to the shared tier failed; the vectors stay local", "texts", len(ks), "error", err.Error())
	}
}

// errSharedAnswer is a shared tier's answer of the wrong length.
var errSharedAnswer = errors.New("the shared tier answered with the wrong number of vectors")

// Package embedtest holds test helpers for code that uses embed.Embedder: a
// deterministic fake embedder and a wrapper that counts calls. They exercise
// bookkeeping (caching, batching, error paths), not search quality; quality
// tests use the built-in model or a real Ollama.
package embedtest

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"math"
	"sync"

	"github.com/toolsearch/toolsearch/embed"
)

// Fake is a deterministic embed.Embedder: each text's vector is derived
// from the SHA-256 of the model ID, kind and text, L2-normalized, so equal
// inputs give equal vectors and different models give different ones. The
// zero value is not usable (Dims must be positive). Fake is safe for
// concurrent use.
type Fake struct {
	// Model is returned by ModelID.
	Model string
	// Dims is the length of every vector.
	Dims int
	// Err, when set, is returned by every Embed call.
	Err error
}

var _ embed.Embedder = (*Fake)(nil)

// Embed returns one vector per text, or f.Err.
func (f *Fake) Embed(ctx context.Context, kind embed.Kind, texts []string) ([][]float32, error) {
	if f.Err != nil {
		return nil, f.Err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = f.Vector(kind, t)
	}
	return out, nil
}

// Vector returns the vector Embed gives text as kind.
func (f *Fake) Vector(kind embed.Kind, text string) []float32 {
	v := make([]float32, f.Dims)
	var norm float64
	seed := sha256.Sum256([]byte(f.Model + "\x00" + kind.String() + "\x00" + text))
	for i := range v {
		var blk [36]byte
		copy(blk[:], seed[:])
		binary.LittleEndian.PutUint32(blk[32:], uint32(i/8))
		h := sha256.Sum256(blk[:])
		x := float64(int32(binary.LittleEndian.Uint32(h[4*(i%8):]))) / math.MaxInt32
		v[i] = float32(x)
		norm += x * x
	}
	if norm > 0 {
		inv := 1 / math.Sqrt(norm)
		for i := range v {
			v[i] = float32(float64(v[i]) * inv)
		}
	}
	return v
}

// Dimensions returns f.Dims.
func (f *Fake) Dimensions() int { return f.Dims }

// ModelID returns f.Model.
func (f *Fake) ModelID() string { return f.Model }

// Counting wraps an embed.Embedder and counts what reaches it. The zero
// value is not usable; set Inner. Counting is safe for concurrent use.
type Counting struct {
	// Inner is the embedder that does the work.
	Inner embed.Embedder

	mu    sync.Mutex
	calls int
	texts int
	seen  []string
}

var _ embed.Embedder = (*Counting)(nil)

// Embed counts the call and its texts, then calls Inner.
func (c *Counting) Embed(ctx context.Context, kind embed.Kind, texts []string) ([][]float32, error) {
	c.mu.Lock()
	c.calls++
	c.texts += len(texts)
	c.seen = append(c.seen, texts...)
	c.mu.Unlock()
	return c.Inner.Embed(ctx, kind, texts)
}

// Dimensions returns Inner's dimensions.
func (c *Counting) Dimensions() int { return c.Inner.Dimensions() }

// ModelID returns Inner's model ID.
func (c *Counting) ModelID() string { return c.Inner.ModelID() }

// Calls returns the number of Embed calls so far.
func (c *Counting) Calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// Texts returns the number of texts embedded so far.
func (c *Counting) Texts() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.texts
}

// Seen returns every text embedded so far, in call order, and forgets them
// (the counts are kept).
func (c *Counting) Seen() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.seen
	c.seen = nil
	return s
}

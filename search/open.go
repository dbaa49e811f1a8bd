package search

import (
	"io"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/vectorindex"
)

// Entry points for programs that run the engine in-process (the toolsearch
// command's eval and bench), so that they need no package below search.

// HNSWConfig tunes the vector index (Config.HNSW); see package vectorindex.
type HNSWConfig = vectorindex.HNSWConfig

// ParseQuantization parses how the vector index stores vectors
// (HNSWConfig.Quantization): "none" (or "") or "int8".
func ParseQuantization(s string) (vectorindex.Quantization, error) {
	return vectorindex.ParseQuantization(s)
}

// LoadTools reads catalog files, each given as [SERVER=]PATH as the
// sidecar's --catalog flag takes them (SERVER= namespaces the file's tools
// as SERVER__NAME); formats are detected from content. Errors name the file
// and line.
func LoadTools(paths ...string) ([]Tool, error) {
	return catalog.Load(catalog.ParseSources(paths...)...)
}

// NewFromTools validates tools as one catalog and builds an engine over
// them, as New does over a snapshot.
func NewFromTools(tools []Tool, cfg Config) (*Engine, error) {
	snap, err := catalog.NewSnapshot(tools)
	if err != nil {
		return nil, err
	}
	return New(snap, cfg)
}

// BuiltinEmbedder returns the built-in word-vector model (embed.NewBuiltin),
// for Config.Embedder.
func BuiltinEmbedder() (embed.Embedder, error) { return embed.NewBuiltin() }

// CachedEmbedder wraps emb in the persistent embedding cache in dir
// (embed.NewCached), as the sidecar's --cache-dir does, for Config.Embedder
// (with Config.IndexDir set to the same dir, a second run is a warm
// restart). Close the returned closer after the engine to flush the cache.
func CachedEmbedder(emb embed.Embedder, dir string) (embed.Embedder, io.Closer, error) {
	c, err := embed.NewCached(emb, dir)
	if err != nil {
		return nil, nil, err
	}
	return c, c, nil
}

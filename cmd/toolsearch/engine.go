package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/vectorindex"
)

// engineOptions configures an in-process engine.
type engineOptions struct {
	maxResultsCap int
	// embedder is "builtin" (the default) or "none".
	embedder string
	// semanticOnly turns fusion off, to measure semantic search alone.
	semanticOnly bool
	// hnsw tunes the vector index; the zero value uses its defaults.
	hnsw vectorindex.HNSWConfig
	// learn turns learning from use on (eval's replay).
	learn search.LearnConfig
	// cacheDir, when set, holds the persistent embedding cache and the
	// saved vector and keyword indexes, as the sidecar's --cache-dir does: a second run
	// on the same catalog measures a warm restart.
	cacheDir string
}

// engine is an in-process engine and the embedding cache it owns (nil
// without --cache-dir).
type engine struct {
	*search.Engine
	cache io.Closer
}

// Close stops the engine (which saves its vector index first, when it
// became ready) and then flushes the embedding cache.
func (e *engine) Close() error {
	err := e.Engine.Close()
	if e.cache != nil {
		err = errors.Join(err, e.cache.Close())
	}
	return err
}

// openEngine loads catalog files and builds an in-process engine over them,
// as the sidecar does at start-up, and waits until every tool is embedded.
// It also returns how long loading and indexing took.
func openEngine(ctx context.Context, paths []string, o engineOptions) (*engine, time.Duration, error) {
	start := time.Now()
	tools, err := catalog.Load(catalog.ParseSources(paths...)...)
	if err != nil {
		return nil, 0, err
	}
	e, err := newEngine(ctx, tools, o)
	if err != nil {
		return nil, 0, err
	}
	return e, time.Since(start), nil
}

// newEngine builds an in-process engine over tools and waits until every
// tool is embedded.
func newEngine(ctx context.Context, tools []search.Tool, o engineOptions) (*engine, error) {
	cfg := search.Config{MaxResultsCap: max(o.maxResultsCap, evalDepth), SemanticOnly: o.semanticOnly, HNSW: o.hnsw, Learn: o.learn}
	var cache io.Closer
	switch o.embedder {
	case "", "builtin":
		b, err := embed.NewBuiltin()
		if err != nil {
			return nil, err
		}
		cfg.Embedder = b
		if o.cacheDir != "" {
			c, err := embed.NewCached(b, o.cacheDir)
			if err != nil {
				return nil, err
			}
			cache, cfg.Embedder, cfg.IndexDir = c, c, o.cacheDir
		}
	case "none":
	default:
		return nil, usageError{fmt.Sprintf("--embedder %q: use builtin or none", o.embedder)}
	}
	se, err := search.NewFromTools(tools, cfg)
	if err != nil {
		if cache != nil {
			cache.Close()
		}
		return nil, fmt.Errorf("build engine: %w", err)
	}
	e := &engine{Engine: se, cache: cache}
	if err := e.WaitIndexed(ctx); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

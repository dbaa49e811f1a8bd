package main

import (
	"context"
	"fmt"
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
}

// openEngine loads catalog files and builds an in-process engine over them,
// as the sidecar does at start-up, and waits until every tool is embedded.
// It also returns how long loading and indexing took.
func openEngine(ctx context.Context, paths []string, o engineOptions) (*search.Engine, time.Duration, error) {
	start := time.Now()
	sources := make([]catalog.Source, len(paths))
	for i, p := range paths {
		sources[i] = catalog.ParseSource(p)
	}
	tools, err := catalog.Load(sources...)
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
func newEngine(ctx context.Context, tools []catalog.Tool, o engineOptions) (*search.Engine, error) {
	snap, err := catalog.NewSnapshot(tools)
	if err != nil {
		return nil, err
	}
	cfg := search.Config{MaxResultsCap: max(o.maxResultsCap, evalDepth), SemanticOnly: o.semanticOnly, HNSW: o.hnsw}
	switch o.embedder {
	case "", "builtin":
		b, err := embed.NewBuiltin()
		if err != nil {
			return nil, err
		}
		cfg.Embedder = b
	case "none":
	default:
		return nil, usageError{fmt.Sprintf("--embedder %q: use builtin or none", o.embedder)}
	}
	e, err := search.New(snap, cfg)
	if err != nil {
		return nil, fmt.Errorf("build engine: %w", err)
	}
	if err := e.WaitIndexed(ctx); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

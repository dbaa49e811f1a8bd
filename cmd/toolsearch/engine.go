package main

import (
	"context"
	"fmt"
	"time"

	"github.com/toolsearch/toolsearch/search"
)

// engineOptions configures an in-process engine.
type engineOptions struct {
	maxResultsCap int
	// embedder is "builtin" (the default) or "none".
	embedder string
	// semanticOnly turns fusion off, to measure semantic search alone.
	semanticOnly bool
	// hnsw tunes the vector index; the zero value uses its defaults.
	hnsw search.HNSWConfig
	// learn turns learning from use on (eval's replay).
	learn search.LearnConfig
}

// openEngine loads catalog files and builds an in-process engine over them,
// as the sidecar does at start-up, and waits until every tool is embedded.
// It also returns how long loading and indexing took.
func openEngine(ctx context.Context, paths []string, o engineOptions) (*search.Engine, time.Duration, error) {
	start := time.Now()
	tools, err := search.LoadTools(paths...)
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
func newEngine(ctx context.Context, tools []search.Tool, o engineOptions) (*search.Engine, error) {
	cfg := search.Config{MaxResultsCap: max(o.maxResultsCap, evalDepth), SemanticOnly: o.semanticOnly, HNSW: o.hnsw, Learn: o.learn}
	switch o.embedder {
	case "", "builtin":
		b, err := search.BuiltinEmbedder()
		if err != nil {
			return nil, err
		}
		cfg.Embedder = b
	case "none":
	default:
		return nil, usageError{fmt.Sprintf("--embedder %q: use builtin or none", o.embedder)}
	}
	e, err := search.NewFromTools(tools, cfg)
	if err != nil {
		return nil, fmt.Errorf("build engine: %w", err)
	}
	if err := e.WaitIndexed(ctx); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

package main

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
)

// embedders sets up the configured embedder for the engine and closes what
// it opened (the persistent cache) at shutdown. Safe for concurrent use:
// the Ollama embedder is made in the engine's background indexer.
type embedders struct {
	cfg     config
	log     *slog.Logger
	metrics *server.Metrics // nil: no metrics
	// budget is the engine's memory budget (0: none); the cache file read
	// at start-up may take half of it (embed.CacheMaxBytes).
	budget int64
	// shared is the embedding cache's shared tier (--store); nil: none.
	shared embed.SharedCache
	// wrap, when not nil, wraps the model (hooks.wrapEmbedder).
	wrap func(embed.Embedder) embed.Embedder

	mu     sync.Mutex
	caches []*embed.Cached
}

// configure sets the engine's Embedder (built-in) or Connect (Ollama).
func (em *embedders) configure(ec *search.Config) error {
	switch em.cfg.embedder {
	case "none":
		em.log.Info("embedder: none; search is lexical only (keyword, regex, fuzzy)")
		return nil
	case "builtin":
		b, err := embed.NewBuiltin()
		if err != nil {
			return err
		}
		emb, err := em.cache(em.instrument(b))
		if err != nil {
			return err
		}
		em.log.Info("embedder: the built-in model (Ollama not configured; use --embedder ollama for an Ollama model)",
			"model", b.ModelID(), "dimensions", b.Dimensions(), "cache_dir", em.cfg.cacheDir)
		ec.Embedder = emb
		return nil
	}
	em.log.Info("embedder: Ollama; searches are lexical until the catalog is embedded",
		"host", em.cfg.ollamaHost, "model", em.cfg.ollamaModel, "cache_dir", em.cfg.cacheDir)
	ec.Connect = func(ctx context.Context) (embed.Embedder, error) {
		o, err := embed.NewOllama(ctx, embed.OllamaConfig{Host: em.cfg.ollamaHost, Model: em.cfg.ollamaModel})
		if err != nil {
			return nil, err
		}
		return em.cache(em.instrument(o))
	}
	return nil
}

// instrument wraps the model in the metrics decorator, inside the cache:
// the metrics count the calls that reach the model (a warm restart with
// --cache-dir makes none).
func (em *embedders) instrument(emb embed.Embedder) embed.Embedder {
	if em.wrap != nil {
		emb = em.wrap(emb)
	}
	if em.metrics == nil {
		return emb
	}
	return &measuredEmbedder{Embedder: emb, metrics: em.metrics}
}

// measuredEmbedder records every Embed call's kind, batch size, duration
// and error in the sidecar's metrics. Safe for concurrent use when the
// embedder it wraps is.
type measuredEmbedder struct {
	embed.Embedder
	metrics *server.Metrics
}

func (m *measuredEmbedder) Embed(ctx context.Context, kind embed.Kind, texts []string) ([][]float32, error) {
	start := time.Now()
	vecs, err := m.Embedder.Embed(ctx, kind, texts)
	m.metrics.ObserveEmbed(kind.String(), len(texts), time.Since(start), err)
	return vecs, err
}

// cache wraps emb in the persistent cache when --cache-dir is set, and in
// the shared store's tier under it with --store (then in memory without
// --cache-dir).
func (em *embedders) cache(emb embed.Embedder) (embed.Embedder, error) {
	if em.cfg.cacheDir == "" && em.shared == nil {
		return emb, nil
	}
	opts := []embed.CacheOption{embed.CacheLogger(em.log), embed.CacheMaxBytes(em.budget / 2)}
	if em.shared != nil {
		opts = append(opts, embed.CacheShared(em.shared))
	}
	c, err := embed.NewCached(emb, em.cfg.cacheDir, opts...)
	if err != nil {
		return nil, err
	}
	em.mu.Lock()
	em.caches = append(em.caches, c)
	em.mu.Unlock()
	return c, nil
}

// close flushes and closes the caches opened.
func (em *embedders) close() error {
	em.mu.Lock()
	defer em.mu.Unlock()
	var errs []error
	for _, c := range em.caches {
		errs = append(errs, c.Close())
	}
	em.caches = nil
	return errors.Join(errs...)
}

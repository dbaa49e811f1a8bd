package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/search"
)

// learnSaveInterval is how often learned state is saved to --cache-dir
// when it changed: a kill -9 loses at most the last few seconds of
// learning (the file itself is replaced atomically, never torn).
const learnSaveInterval = 5 * time.Second

// learnConfig opens the learned state for --learn: loaded from
// --cache-dir, then merged with --learn-from. Learning off gives the zero
// config (the engine then ranks exactly as without learning). A file that
// cannot be read is logged and learning starts from what loaded.
func learnConfig(cfg config, log *slog.Logger) search.LearnConfig {
	if !cfg.learn {
		return search.LearnConfig{}
	}
	store := learn.NewStore(learn.Config{HalfLife: cfg.learnHalfLife})
	if cfg.cacheDir != "" {
		path := filepath.Join(cfg.cacheDir, learn.FileName)
		n, err := store.Load(path)
		if err != nil {
			log.Error("loading learned state failed; learning starts afresh (the file is replaced at the next save)", "path", path, "error", err.Error())
		} else {
			log.Info("learned state loaded", "path", path, "records", n)
		}
	} else {
		log.Warn("--learn without --cache-dir: what is learned is lost at restart")
	}
	if cfg.learnFrom != "" {
		pull(context.Background(), store, cfg.learnFrom, log)
	}
	rate := float64(max(cfg.learnReportPerMin, 1)) / 60
	return search.LearnConfig{Store: store, ReportRate: rate, Shared: cfg.learnShared}
}

// pull imports --learn-from once, logging the outcome.
func pull(ctx context.Context, store *learn.Store, src string, log *slog.Logger) {
	n, err := store.Pull(ctx, src)
	if err != nil {
		log.Warn("pulling learned state failed; keeping what is learned", "from", src, "error", err.Error())
		return
	}
	log.Info("learned state pulled", "from", src, "records", n)
}

// startLearning saves learned state every learnSaveInterval when it
// changed, and pulls --learn-from every --learn-pull-interval. The
// returned stop saves a last time.
func startLearning(ctx context.Context, cfg config, e *search.Engine, log *slog.Logger) (stop func()) {
	lc := e.LearnConfig()
	if lc.Store == nil {
		return func() {}
	}
	store := lc.Store
	path := ""
	if cfg.cacheDir != "" {
		path = filepath.Join(cfg.cacheDir, learn.FileName)
	}
	saved := store.Version()
	save := func() {
		if v := store.Version(); path != "" && v != saved {
			if err := store.Save(path); err != nil {
				log.Error("saving learned state failed", "path", path, "error", err.Error())
				return
			}
			saved = v
		}
	}
	if err := e.RefreshLearned(ctx); err != nil {
		log.Warn("indexing learned state failed", "error", err.Error())
	}
	lctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(learnSaveInterval)
		defer tick.Stop()
		var pulls <-chan time.Time
		if cfg.learnFrom != "" && cfg.learnPullInterval > 0 {
			pt := time.NewTicker(cfg.learnPullInterval)
			defer pt.Stop()
			pulls = pt.C
		}
		for {
			select {
			case <-lctx.Done():
				return
			case <-tick.C:
				save()
			case <-pulls:
				pull(lctx, store, cfg.learnFrom, log)
				if err := e.RefreshLearned(lctx); err != nil && lctx.Err() == nil {
					log.Warn("indexing learned state failed", "error", err.Error())
				}
			}
		}
	}()
	return func() {
		cancel()
		<-done
		save()
	}
}

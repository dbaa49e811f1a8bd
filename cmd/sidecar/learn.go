package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
)

// learnSaveInterval is how often learned state is saved to --cache-dir
// when it changed: a kill -9 loses at most the last few seconds of
// learning (the file itself is replaced atomically, never torn).
const learnSaveInterval = 5 * time.Second

// learnStartPullTimeout bounds the start-up pull of --learn-from, body
// included: a source that accepts the connection and never answers (or
// trickles a byte a second) is given up with a warning, and the sidecar
// becomes ready with what it has. A fleet's file of a few MB arrives in
// well under a second.
const learnStartPullTimeout = 10 * time.Second

// learnPullTimeout bounds each later pull: in the background, so it may
// take longer, but never hangs the learner (whose stop waits for it).
const learnPullTimeout = time.Minute

// learnConfig opens the learned state for --learn: loaded from
// --cache-dir (not with --store, whose log the pod replays instead), then
// merged with --learn-from (at most pullTimeout, 0
// meaning learnStartPullTimeout; ended at once by ctx). Learning off gives the zero
// config (the engine then ranks exactly as without learning). A bad line
// costs that line (logged and counted); a file that cannot be read at all
// is logged and learning starts from what loaded.
//
// damaged is true when the file held bad lines: startLearning then writes
// it again at once, without them.
func learnConfig(ctx context.Context, cfg config, log *slog.Logger, metrics *server.Metrics, pullTimeout time.Duration) (lc search.LearnConfig, damaged bool) {
	if !cfg.learn {
		return search.LearnConfig{}, false
	}
	store := learn.NewStore(learn.Config{HalfLife: cfg.learnHalfLife})
	switch {
	case cfg.cacheDir != "" && cfg.store != "":
		// The fleet's log holds every pod's uses, this pod's before a
		// restart too (they carry the old process's pod id), and the pod
		// replays it from the start: loading the file as well would count
		// each of its uses twice (sessions and weights).
		log.Info("learned state comes from the shared store's log (--store), replayed from its start; " + learn.FileName + " is saved but not loaded")
	case cfg.cacheDir != "":
		path := filepath.Join(cfg.cacheDir, learn.FileName)
		st, err := store.Load(path)
		metrics.ObserveLearnedImport("file", st.Records, st.Skipped)
		switch {
		case err != nil:
			log.Error("loading learned state failed; learning starts afresh (the file is replaced at the next save, and kept as "+learn.FileName+learn.BackupSuffix+")", "path", path, "error", err.Error())
		case st.Skipped > 0:
			damaged = true
			log.Warn("learned state loaded without its bad lines: each was skipped, the other records kept",
				"path", path, "records", st.Records, "skipped_lines", st.Skipped, "first_problem", st.FirstProblem,
				"damaged_copy", st.Damaged, "from_backup", st.Backup)
		default:
			log.Info("learned state loaded", "path", path, "records", st.Records, "clamped", st.Clamped, "truncated", st.Truncated)
		}
	default:
		log.Warn("--learn without --cache-dir: what is learned is lost at restart")
	}
	if cfg.learnFrom != "" {
		if pullTimeout <= 0 {
			pullTimeout = learnStartPullTimeout
		}
		pctx, cancel := context.WithTimeout(ctx, pullTimeout)
		pull(pctx, store, cfg.learnFrom, log, metrics)
		cancel()
	}
	rate := float64(max(cfg.learnReportPerMin, 1)) / 60
	return search.LearnConfig{Store: store, ReportRate: rate, Shared: cfg.learnShared,
		Pin: cfg.learnPin, PinRule: learn.PinRule{Share: cfg.learnPinShare, MinSessions: cfg.learnPinSessions}}, damaged
}

// pull imports --learn-from once, within ctx, logging the outcome.
func pull(ctx context.Context, store *learn.Store, src string, log *slog.Logger, metrics *server.Metrics) {
	st, err := store.Pull(ctx, src)
	metrics.ObserveLearnedImport("pull", st.Records, st.Skipped)
	if err != nil {
		log.Warn("pulling learned state failed; keeping what is learned", "from", src, "records", st.Records, "error", err.Error())
		return
	}
	if st.Skipped > 0 {
		log.Warn("learned state pulled without its bad lines", "from", src, "records", st.Records, "skipped_lines", st.Skipped, "first_problem", st.FirstProblem)
		return
	}
	log.Info("learned state pulled", "from", src, "records", st.Records, "clamped", st.Clamped)
}

// startLearning saves learned state every learnSaveInterval when it
// changed, and pulls --learn-from every --learn-pull-interval. The
// returned stop saves a last time. A damaged file (learnConfig) is saved
// again at once, without its bad lines.
func startLearning(ctx context.Context, cfg config, e *search.Engine, log *slog.Logger, metrics *server.Metrics, damaged bool) (stop func()) {
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
	if damaged {
		saved = ^store.Version() // differs: save now
		save()
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
				pctx, pcancel := context.WithTimeout(lctx, learnPullTimeout)
				pull(pctx, store, cfg.learnFrom, log, metrics)
				pcancel()
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

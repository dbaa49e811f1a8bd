package search

import (
	"context"
	"errors"
	"time"

	"github.com/toolsearch/toolsearch/embed"
)

// Indexing knobs.
const (
	// indexChunk is how many tools the indexer embeds before it swaps in a
	// state with their vectors. Each swap copies the semantic view (O(tools)),
	// so chunks keep swaps rare on large catalogs while progress stays
	// visible: 100k tools take 49 swaps.
	indexChunk = 2048
	// retryMin and retryMax bound the indexer's backoff after an embedder
	// error: 1 s, 2 s, 4 s … up to 30 s, retrying until the embedder answers.
	retryMin = time.Second
	retryMax = 30 * time.Second
	// progressEvery is how often indexing progress is logged.
	progressEvery = 2 * time.Second
)

// index is the background indexer. When connect is set it first makes the
// embedder, retrying with backoff while that fails; then it embeds every
// tool without a vector, chunk by chunk, retrying with backoff while the
// embedder fails, and waits for a catalog change to wake it. It returns
// when ctx is cancelled.
func (e *Engine) index(ctx context.Context, connect func(context.Context) (embed.Embedder, error)) {
	defer close(e.done)
	log := e.cfg.Log
	backoff := retryMin
	wait := func(err error, what string) bool {
		e.indexState.Store(int32(IndexDegraded))
		log.Warn(what+"; lexical search answers meanwhile", "error", err.Error(), "retry_in", backoff.String())
		select {
		case <-ctx.Done():
			return false
		case <-time.After(backoff):
		case <-e.wake:
			// A catalog change, or a query the embedder answered again
			// (vectorCandidates): retry now rather than after the backoff.
		}
		backoff = min(2*backoff, retryMax)
		return true
	}
	for connect != nil {
		emb, err := connect(ctx)
		if err == nil {
			err = e.attach(emb)
		}
		if err == nil {
			log.Info("embedder connected", "embedder", emb.ModelID(), "dimensions", emb.Dimensions())
			e.indexState.Store(int32(IndexWarming))
			backoff = retryMin
			break
		}
		if ctx.Err() != nil || !wait(err, "connecting to the embedder failed") {
			return
		}
	}
	start := time.Now()
	for {
		st := e.state.Load()
		missing := st.sem.missing()
		if len(missing) == 0 {
			if IndexState(e.indexState.Swap(int32(IndexReady))) != IndexReady {
				log.Info("semantic index ready", "embedder", st.sem.embedder.ModelID(), "tools", st.sem.embedded,
					"elapsed", time.Since(start).Round(time.Millisecond).String())
				e.saveReadyIndex()
			}
			select {
			case <-ctx.Done():
				return
			case <-e.wake:
				continue
			}
		}
		if IndexState(e.indexState.Load()) == IndexReady {
			start = time.Now()
			e.indexState.Store(int32(IndexWarming))
		}
		err := e.embedMissing(ctx, missing)
		if err == nil {
			backoff = retryMin
			continue
		}
		if ctx.Err() != nil || !wait(err, "embedding the catalog failed") {
			return
		}
	}
}

// embedMissing embeds the given tools of the current state in chunks,
// swapping in each chunk's vectors, and logs progress with counts, rate and
// time left.
func (e *Engine) embedMissing(ctx context.Context, missing []int) error {
	start, last := time.Now(), time.Now()
	log := e.cfg.Log.With("embedder", e.state.Load().sem.embedder.ModelID())
	total := len(missing)
	if total > indexChunk {
		log.Info("embedding the catalog", "tools", total)
	}
	for done := 0; done < total; {
		n := min(indexChunk, total-done)
		st := e.state.Load()
		texts := make([]string, 0, n)
		for _, i := range missing[done : done+n] {
			if i < st.sem.text.Len() {
				texts = append(texts, st.sem.text.Get(i))
			}
		}
		vecs, err := st.sem.embedder.Embed(ctx, embed.Document, texts)
		if err != nil {
			return err
		}
		if len(vecs) != len(texts) {
			return errors.New("embedder returned a different number of vectors than texts")
		}
		if err := e.commitVectors(texts, vecs); err != nil {
			return err
		}
		done += n
		if now := time.Now(); now.Sub(last) >= progressEvery || done == total && total > indexChunk {
			last = now
			elapsed := now.Sub(start).Seconds()
			rate := float64(done) / max(elapsed, 1e-9)
			log.Info("embedding progress", "done", done, "total", total, "per_second", int(rate),
				"eta", time.Duration(float64(total-done)/rate*float64(time.Second)).Round(time.Second).String())
		}
	}
	return nil
}

// commitVectors indexes freshly embedded document texts and swaps in a
// state where every tool with one of those texts has its vector. Texts that
// no tool has any more (the catalog changed meanwhile) are dropped.
func (e *Engine) commitVectors(texts []string, raw [][]float32) error {
	byText := make(map[string][]float32, len(texts))
	for i, t := range texts {
		byText[t] = raw[i]
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	cur := e.state.Load()
	sem, err := e.fill(cur.sem, byText)
	if err != nil || sem == cur.sem {
		return err
	}
	next := *cur
	next.sem = sem
	e.state.Store(&next)
	return nil
}

// fill returns sem with a vector for every tool that has none and whose
// document text has a raw vector in byText, adding those vectors to the
// index; sem itself when no tool needs one. Callers hold e.mu.
func (e *Engine) fill(sem *semState, byText map[string][]float32) (*semState, error) {
	var idx []int       // tool indexes to set
	var sel [][]float32 // their raw vectors
	for i, id := range sem.vid {
		if id >= 0 {
			continue
		}
		if v, ok := byText[sem.text.Get(i)]; ok {
			idx, sel = append(idx, i), append(sel, v)
		}
	}
	if len(idx) == 0 {
		return sem, nil
	}
	ids, err := e.vectors.add(sel)
	if err != nil {
		return nil, err
	}
	ed := sem.edit()
	ed.s.pc = e.vectors.pc
	for k, i := range idx {
		ed.set(i, ids[k])
	}
	return ed.done(), nil
}

// WaitIndexed blocks until every tool of the current catalog has a vector,
// or ctx is done. Without an embedder configured it returns at once.
func (e *Engine) WaitIndexed(ctx context.Context) error {
	if e.done == nil {
		return nil
	}
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		st := e.state.Load()
		if st.sem != nil && st.sem.embedded == st.snap.Len() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// saveReadyIndex saves the vector index of the current state when it
// differs from the last one saved (Config.IndexDir).
func (e *Engine) saveReadyIndex() {
	if e.cfg.IndexDir == "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	st := e.state.Load()
	if st.sem == nil || st.sem.embedded != st.snap.Len() || st.snap.Version() == e.savedVersion {
		return
	}
	start := time.Now()
	if err := e.saveIndex(st); err != nil {
		e.cfg.Log.Warn("saving the vector index failed; the next start-up builds it again", "dir", e.cfg.IndexDir, "error", err.Error())
		return
	}
	e.savedVersion = st.snap.Version()
	e.cfg.Log.Info("saved the vector index", "tools", st.sem.embedded, "elapsed", time.Since(start).Round(time.Millisecond).String())
}

// nudge wakes the indexer after a catalog change left tools without vectors.
func (e *Engine) nudge() {
	if e.wake == nil {
		return
	}
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// isTimeout reports whether err is a deadline.
func isTimeout(err error) bool { return errors.Is(err, context.DeadlineExceeded) }

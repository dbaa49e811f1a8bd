package search

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/fallback"
	"github.com/toolsearch/toolsearch/learn"
)

// learner holds the engine's learning side: the store, the rate limiter,
// and the current learned index, rebuilt from the store's View by a
// background goroutine (loop) that close stops. It is safe for concurrent
// use: searches read the index through an atomic pointer; rebuilds are
// serialized by mu; close is idempotent.
type learner struct {
	cfg   LearnConfig
	store *learn.Store
	limit *learn.Limiter
	rate  float64
	index atomic.Pointer[learnedIndexes]
	// pins are the learned pins and evidence of every scope (pin.go),
	// rebuilt with index.
	pins atomic.Pointer[learnedPins]

	mu sync.Mutex
	// vecs caches learned queries' unit vectors by text and embedder
	// model; guarded by mu.
	vecs     map[string][]float32
	vecModel string

	// positions are applyLearned's tables of hits by catalog ID.
	positions hitPositions
	// serial keeps the learned stage's lexical half on the search's
	// goroutine (beginLearned); tests set it to compare the two.
	serial bool
	// inline counts the searches left that run the learned stage in
	// line after one found its goroutine unfinished (aheadBackoff).
	inline atomic.Int32

	wake     chan struct{}
	stop     context.CancelFunc
	done     chan struct{}
	stopOnce sync.Once
}

// learnedIndexes are the learned indexes of every scope of a learn.View
// against one catalog snapshot; immutable.
type learnedIndexes struct {
	version, snapVersion uint64
	// embedded: the learned vectors were computed (an embedder was
	// connected).
	embedded bool
	byScope  map[string]*learnedIndex
}

// learnedIndex is an immutable index of one scope of a learn.View.
type learnedIndex struct {
	// names are the learning tools by document ID of kw.
	names    []string
	kw       *fallback.Index
	evidence []float64
	// sessions are the sessions behind each tool's learned state
	// (learn.ToolView.Sessions), for learnJoinSpread.
	sessions []int
	// queries are each tool's learned queries (their analyzed terms and
	// weights), for the evidence that resembles a request
	// (learnedIndex.localEvidence).
	queries [][]learnedQuery
	// vecq are, for each of a tool's learned vectors (vecs[i][k]), the
	// index of its query in queries[i].
	vecq [][]int
	// model is the embedder that made vecs.
	model string
	// vecs are each tool's learned queries' unit vectors with the
	// catalog's common component pc removed, as from the tools' own
	// vectors (nil without an embedder): the semantic candidates read them
	// beside the tools' (learned.go, learnedVectors).
	vecs [][][]float32
	pc   []float32
	// screen lays vecs out for the scans (learnedindex.go); nil without
	// an embedder.
	screen *learnedScreen
	// ids are names' catalog IDs in the snapshot the index was built
	// against (-1 where absent); learnedIndex.id checks them.
	ids []int
	// idSnap is the snapshot ids were resolved in (immutable): in it they
	// are right without a check.
	idSnap *catalog.Snapshot
	// terms numbers the terms of queries (learnedindex.go).
	terms *learnedTerms
	// siblings weighs each tool's learned terms by how well they tell
	// it from its server's other tools in the snapshot the index was
	// built against (learnedsiblings.go); a catalog change rebuilds the
	// index (beginLearned).
	siblings siblingTerms
	// nonNegative: no learned query has a negative weight (so
	// localEvidence may stop once its sum reaches the tool's evidence).
	nonNegative bool
	// hitBufs holds *[]fallback.Hit for the learned keyword search's
	// hits (wordsOf), handed back when the stage ends (releaseWords); with
	// terms' caches, the only state that changes (safe for concurrent
	// use).
	hitBufs sync.Pool
}

// learnRebuildInterval is the least time between two background rebuilds:
// a busy sidecar's reports are batched into one rebuild a second.
const learnRebuildInterval = time.Second

func newLearner(e *Engine, cfg LearnConfig) *learner {
	l := &learner{
		cfg: cfg, store: cfg.Store, rate: cfg.ReportRate,
		limit: learn.NewLimiter(cfg.ReportRate, cfg.ReportBurst, cfg.Now),
		vecs:  map[string][]float32{},
		wake:  make(chan struct{}, 1),
		done:  make(chan struct{}),
	}
	if l.rate <= 0 {
		l.rate = learn.DefaultReportRate
	}
	ctx, cancel := context.WithCancel(context.Background())
	l.stop = cancel
	go l.loop(ctx, e)
	l.nudge()
	return l
}

func (l *learner) nudge() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// close stops the background rebuild and waits for it. It is idempotent
// and safe for concurrent use; a rebuild requested after it (Sync, or
// RefreshLearned) still runs in the caller.
func (l *learner) close() {
	l.stopOnce.Do(func() {
		l.stop()
		<-l.done
	})
}

// loop rebuilds the learned index when nudged, at most once per
// learnRebuildInterval.
func (l *learner) loop(ctx context.Context, e *Engine) {
	defer close(l.done)
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.wake:
		}
		if err := l.rebuild(ctx, e); err != nil && ctx.Err() == nil {
			e.cfg.Log.Warn("rebuilding the learned index failed; searches use the previous one", "error", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(learnRebuildInterval):
		}
	}
}

// rebuild drops what deleted tools learned and indexes the store's
// current view against the current snapshot.
func (l *learner) rebuild(ctx context.Context, e *Engine) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := e.state.Load()
	l.store.Retain(func(t string) bool { _, ok := st.snap.Lookup(t); return ok })
	v := l.store.View()
	l.pins.Store(pinsOf(v, l.cfg))
	var emb embed.Embedder
	var pc []float32
	if st.sem != nil {
		emb, pc = st.sem.embedder, st.sem.pc
	}
	ixs := &learnedIndexes{version: v.Version, snapVersion: st.snap.Version(), embedded: emb != nil, byScope: map[string]*learnedIndex{}}
	for _, scope := range v.Scopes() {
		ix, err := l.build(ctx, emb, pc, v, scope, st.snap)
		if err != nil {
			return err
		}
		ix.ids, ix.idSnap = lookupIDs(st.snap, ix.names), st.snap
		ixs.byScope[scope] = ix
	}
	// Forget the vectors of queries no longer learned (bounded memory).
	live := map[string]bool{}
	for _, scope := range v.Scopes() {
		for _, t := range v.Tools(scope) {
			for _, q := range v.Tool(scope, t).Queries {
				live[q.Text] = true
			}
		}
	}
	maps.DeleteFunc(l.vecs, func(text string, _ []float32) bool { return !live[text] })
	l.index.Store(ixs)
	return nil
}

// build indexes one scope of v against snap, the current catalog (its
// servers, for siblingTerms). Callers hold mu.
func (l *learner) build(ctx context.Context, emb embed.Embedder, pc []float32, v *learn.View, scope string, snap *catalog.Snapshot) (*learnedIndex, error) {
	ix := &learnedIndex{}
	docs := make([]fallback.Document, 0, len(v.Tools(scope)))
	for _, t := range v.Tools(scope) {
		tv := v.Tool(scope, t)
		if tv.Evidence <= 0 {
			continue // imported, with the claim of one session: it lifts nothing (learn.ToolView.Evidence)
		}
		texts := make([]string, len(tv.Queries))
		for i, q := range tv.Queries {
			texts[i] = q.Text
		}
		d := commonDamp(tv.Sessions, v.ScopeSessions(scope)) // a tool most sessions use: see learnCommonShare
		qs := make([]learnedQuery, len(tv.Queries))
		for i, q := range tv.Queries {
			qs[i] = learnedQuery{terms: fallback.Terms(q.Text), weight: q.Weight * d}
		}
		ix.names = append(ix.names, t)
		ix.evidence = append(ix.evidence, tv.Evidence*d)
		ix.sessions = append(ix.sessions, tv.Sessions)
		ix.queries = append(ix.queries, qs)
		docs = append(docs, fallback.Document{Description: strings.Join(texts, ". ")})
	}
	ix.kw = fallback.NewIndex(docs)
	ix.terms = newLearnedTerms(ix.queries, ix.kw)
	ix.siblings = newSiblingTerms(ix.terms, ix.names, snap)
	ix.nonNegative = !slices.ContainsFunc(ix.queries, func(qs []learnedQuery) bool {
		return slices.ContainsFunc(qs, func(q learnedQuery) bool { return !(q.weight >= 0) })
	})
	if emb != nil && len(ix.names) > 0 {
		if err := l.vectors(ctx, emb, pc, v, scope, ix); err != nil {
			return nil, err
		}
	}
	return ix, nil
}

// vectors fills ix.vecs with each tool's learned queries' vectors,
// embedding the queries not cached yet.
func (l *learner) vectors(ctx context.Context, emb embed.Embedder, pc []float32, v *learn.View, scope string, ix *learnedIndex) error {
	if l.vecModel != emb.ModelID() {
		clear(l.vecs)
		l.vecModel = emb.ModelID()
	}
	var missing []string
	seen := map[string]bool{}
	for _, t := range ix.names {
		for _, q := range v.Tool(scope, t).Queries {
			if _, ok := l.vecs[q.Text]; !ok && !seen[q.Text] {
				seen[q.Text] = true
				missing = append(missing, q.Text)
			}
		}
	}
	const batch = 256
	for i := 0; i < len(missing); i += batch {
		part := missing[i:min(i+batch, len(missing))]
		vecs, err := emb.Embed(ctx, embed.Query, part)
		if err != nil {
			return fmt.Errorf("embed learned queries: %w", err)
		}
		if len(vecs) != len(part) {
			return fmt.Errorf("embed learned queries: %d vectors for %d texts", len(vecs), len(part))
		}
		for j, vec := range vecs {
			vec = slices.Clone(vec) // the embedder's (or its cache's) own
			embed.Normalize(vec)
			l.vecs[part[j]] = vec
		}
	}
	ix.model = emb.ModelID()
	ix.vecs, ix.vecq, ix.pc = make([][][]float32, len(ix.names)), make([][]int, len(ix.names)), pc
	for i, t := range ix.names {
		for k, q := range v.Tool(scope, t).Queries {
			if vec := l.vecs[q.Text]; vec != nil && !isZeroVector(vec) {
				pv := slices.Clone(project(vec, pc))
				embed.Normalize(pv)
				ix.vecs[i] = append(ix.vecs[i], pv)
				ix.vecq[i] = append(ix.vecq[i], k)
			}
		}
	}
	ix.screen = newLearnedScreen(ix.vecs)
	return nil
}

// learnCommonShare is the share of its scope's sessions above which a
// tool's learned weight is damped (commonDamp): a tool used in that many
// of them (an always-loaded read_file, a logger called after every
// search) was credited, mostly as misses, with whatever its sessions
// searched, and its uses say little about any one request; if it is
// needed that often, learned pinning (learn.PinRule) serves it better
// than a lift. Measured: with learn's √(k+1) credit sharing, a tool used
// in every session of TestLearnAlwaysUsedTool (then 9 of 17 sessions
// counted: its misses past learn.DefaultMaxMissQueriesPerTool were dropped
// before their sessions counted; now all of them count, 23 of 23, and it
// keeps 0.3 of its weight) rose into an unrelated request's top 5 without
// it, and with 0.5; with 0.3 it does not. On the dev sets' replay it damps one tool of livemcpbench's
// odd half (5 of 14–16 sessions) and no other, and changes no nDCG.
const learnCommonShare = 0.3

// learnCommonMinSessions is the least number of sessions a tool must have
// been used in for commonDamp to damp it: below it a share is noise (1 of
// 2 sessions is half), as for learned pinning (learn.DefaultPinMinSessions).
const learnCommonMinSessions = learn.DefaultPinMinSessions

// commonDamp is the factor a tool's learned weights are multiplied by
// given the sessions that used it and its scope's: 1 up to
// learnCommonShare of them, then learnCommonShare over its share (a tool
// used in every session keeps 0.3 of its weight).
func commonDamp(sessions, scopeSessions int) float64 {
	if sessions < learnCommonMinSessions || scopeSessions <= 0 {
		return 1
	}
	sh := float64(sessions) / float64(scopeSessions)
	if sh <= learnCommonShare {
		return 1
	}
	return learnCommonShare / sh
}

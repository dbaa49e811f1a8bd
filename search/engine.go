package search

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/vectorindex"
)

// Tool is a tool definition as the catalog holds it. It is re-exported so
// that the server converts tools without importing package catalog.
type Tool = catalog.Tool

// Config configures an Engine. The zero value is valid: every field has a
// documented default.
type Config struct {
	// MaxResultsCap is the largest number of results one search returns;
	// requests asking for more are clamped to it. 0 means
	// DefaultMaxResultsCap (10).
	MaxResultsCap int
	// MaxQueryLength is the longest query accepted, in characters; longer
	// ones are rejected with ErrInvalidArgument. 0, or more than the
	// package's MaxQueryLength (4,096), means MaxQueryLength.
	MaxQueryLength int
	// AvailableToolsCap is the most tool names listed in a no-match result.
	// 0 means DefaultAvailableToolsCap (100).
	AvailableToolsCap int
	// Keywords is search-only text by tool name (the sidecar's
	// --keywords-file): indexed with the tool's catalog.KeywordsAnnotation
	// in the keyword index's own field, never returned or sent to a model.
	// The engine only reads it; nil means none.
	Keywords map[string]string
	// Embedder embeds tools and queries for semantic search. Set at most
	// one of Embedder and Connect; with neither, search is lexical only (the
	// default mode answers with keyword results and fallback_reason
	// "embedder_unavailable").
	Embedder embed.Embedder
	// Connect, when set, makes the embedder in the background: the indexer
	// calls it (retrying with backoff while it fails, e.g. while Ollama is
	// not up yet) and starts semantic search once it returns. Meanwhile
	// searches are lexical with fallback_reason "embedder_unavailable".
	Connect func(context.Context) (embed.Embedder, error)
	// QueryTimeout is the budget for embedding one query; past it the
	// search answers with keyword results and fallback_reason
	// "embedder_timeout". 0 means DefaultQueryTimeout.
	QueryTimeout time.Duration
	// Confidence overrides the semantic confidence gate; the zero value
	// uses the calibrated gate of the embedder's model (see confidence.go).
	Confidence *Gate
	// HNSW tunes the vector index; the zero value uses its defaults, and
	// an ExactLimit of 0 means exactIndexLimit (16,384): smaller catalogs
	// are searched exactly, without a graph. A negative ExactLimit always
	// builds the graph.
	HNSW vectorindex.HNSWConfig
	// QueryCacheSize is the number of query vectors kept in an LRU cache.
	// 0 means DefaultQueryCacheSize; negative disables the cache.
	QueryCacheSize int
	// SemanticOnly makes the default and semantic modes answer from the
	// vector index alone, without the confidence gate and without fusing
	// keyword results. It exists to measure semantic search on its own
	// (toolsearch eval --semantic-only); the default, fusion, measures
	// better on every benchmark (docs/benchmarks.md).
	SemanticOnly bool
	// Log receives indexing progress and embedder errors; nil means
	// slog.Default().
	Log *slog.Logger
	// Sessions bounds the session reveal sets (session.go); the zero value
	// uses their documented defaults.
	Sessions SessionConfig
	// IndexDir, when set, is where the built vector index is saved whenever
	// it becomes ready, and loaded from at start-up, so that a restart does
	// not rebuild the graph (persist.go); the start-up catalog's keyword
	// index is saved there too, and loaded by a start over the same catalog
	// (lexsave.go). "" saves nothing.
	IndexDir string
	// MaxTools, when positive, is the most tools the catalog may hold: an
	// Upsert that would grow it past the limit changes nothing and returns
	// an error wrapping ErrCatalogFull. 0 means no limit.
	MaxTools int
	// Learn turns learning from use on (usage.go); the zero value leaves
	// it off, and the engine then ranks exactly as without it.
	Learn LearnConfig
	// MemoryBudget, when positive, is the memory in bytes the catalog may
	// take by the engine's estimate (memory.go: a fixed part, the vector and
	// a part proportional to each tool's text). New refuses a catalog over
	// it, and Apply a change that would grow the estimate past it, with an
	// error wrapping ErrCatalogFull that says how many tools fit. 0 means no
	// budget.
	MemoryBudget int64
	// Fleet, when set, shares this engine's catalog changes (Upsert,
	// Delete) and learning with a fleet of sidecars (fleet.go); nil shares
	// nothing.
	Fleet Fleet
}

// DefaultQueryTimeout is the default budget for embedding a query: the
// built-in model takes microseconds and a local Ollama a few milliseconds
// (≈8 ms for one text on 2 cores), so 300 ms only trips when the embedder
// is overloaded or hung, and keeps a search's worst case well under a
// model turn's latency.
const DefaultQueryTimeout = 300 * time.Millisecond

// DefaultQueryCacheSize is the default number of cached query vectors:
// agents repeat queries within a session, and 1,024 vectors of 768
// dimensions cost about 3 MB.
const DefaultQueryCacheSize = 1024

// DefaultAvailableToolsCap is the default number of tool names a no-match
// result lists: enough for a model to see the catalog's shape (and pick with
// select:) without flooding its context; 100 names cost about 1,000 tokens.
const DefaultAvailableToolsCap = 100

func (c Config) withDefaults() Config {
	if c.MaxResultsCap <= 0 {
		c.MaxResultsCap = DefaultMaxResultsCap
	}
	if c.MaxQueryLength <= 0 || c.MaxQueryLength > MaxQueryLength {
		c.MaxQueryLength = MaxQueryLength
	}
	if c.AvailableToolsCap <= 0 {
		c.AvailableToolsCap = DefaultAvailableToolsCap
	}
	if c.QueryTimeout <= 0 {
		c.QueryTimeout = DefaultQueryTimeout
	}
	if c.QueryCacheSize == 0 {
		c.QueryCacheSize = DefaultQueryCacheSize
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	return c
}

// Engine answers searches over the current catalog snapshot. It is safe for
// concurrent use: searches read an immutable state; Upsert and Delete build
// a new state and swap it atomically, so a search in flight never sees a
// half-applied change.
//
// With an embedder, New returns at once with lexical search ready and a
// background indexer embedding the catalog; semantic search starts when
// every tool has a vector (WaitIndexed waits for it). Close stops the
// indexer.
type Engine struct {
	cfg   Config
	state atomic.Pointer[state]
	// mu serializes writers (Upsert, Delete, the indexer's swaps); readers
	// never take it.
	mu sync.Mutex

	// Semantic side: vectors is nil until an embedder is connected; the
	// others are nil without one.
	vectors    *vectorStore // guarded by mu
	queries    *queryCache
	indexState atomic.Int32 // an IndexState
	wake       chan struct{}
	stop       context.CancelFunc
	done       chan struct{}

	// savedVersion is the catalog version whose vector index was last
	// saved to Config.IndexDir; guarded by mu.
	savedVersion uint64

	// saving tracks the background save of the start-up keyword index
	// (lexsave.go); Close waits for it.
	saving sync.WaitGroup

	// sessions holds the session reveal sets (session.go).
	sessions *sessionStore

	// catalogChanged wakes CatalogChanged's waiters at each new snapshot
	// (watch.go).
	catalogChanged broadcast

	// learner is the learning side (learner.go); nil when learning is off.
	learner *learner

	// The memory estimate's inputs (memory.go), written under mu and read
	// without it (Memory): toolBytes is the sum of the current catalog's
	// ToolSizes, dims the vector length the estimate counts.
	toolBytes atomic.Int64
	dims      atomic.Int64
}

// New builds an engine over snap. With cfg.Embedder or cfg.Connect set it
// starts the background indexer; call Close to stop it.
func New(snap *catalog.Snapshot, cfg Config) (*Engine, error) {
	if snap == nil {
		return nil, fmt.Errorf("search: nil catalog snapshot")
	}
	if cfg.Embedder != nil && cfg.Connect != nil {
		return nil, fmt.Errorf("search: set Config.Embedder or Config.Connect, not both")
	}
	e := &Engine{cfg: cfg.withDefaults(), sessions: newSessionStore(cfg.Sessions)}
	e.toolBytes.Store(snapshotSize(snap))
	switch {
	case cfg.Embedder != nil:
		e.dims.Store(int64(cfg.Embedder.Dimensions()))
	case cfg.Connect != nil:
		e.dims.Store(unknownDimensions)
	}
	if err := e.checkStartBudget(snap.Len()); err != nil {
		return nil, err
	}
	e.state.Store(e.startState(snap))
	if cfg.Learn.Store != nil {
		e.learner = newLearner(e, cfg.Learn)
	}
	connect := e.cfg.Connect
	switch {
	case e.cfg.Embedder != nil:
		if err := e.attach(e.cfg.Embedder); err != nil {
			e.saving.Wait()
			return nil, err
		}
		e.indexState.Store(int32(IndexWarming))
	case connect != nil:
		e.indexState.Store(int32(IndexWarming))
	default:
		e.indexState.Store(int32(IndexLexicalOnly))
		return e, nil
	}
	e.queries = newQueryCache(e.cfg.QueryCacheSize)
	ctx, cancel := context.WithCancel(context.Background())
	e.stop, e.wake, e.done = cancel, make(chan struct{}, 1), make(chan struct{})
	go e.index(ctx, connect)
	return e, nil
}

// startState returns New's first state: with the keyword index saved for
// snap in Config.IndexDir, if there is one; otherwise built, and then saved
// there in the background for the next start (lexsave.go).
func (e *Engine) startState(snap *catalog.Snapshot) *state {
	lex, digest := e.loadKeyword(snap)
	if lex != nil {
		return stateWith(snap, lex, e.cfg.Keywords)
	}
	st := newState(snap, e.cfg.Keywords)
	if e.cfg.IndexDir != "" {
		e.saving.Go(func() { e.saveKeyword(st, digest) })
	}
	return st
}

// attach starts semantic search with emb: it creates the vector store and
// swaps in a state with an (empty) semantic view for the indexer to fill.
func (e *Engine) attach(emb embed.Embedder) error {
	if emb.Dimensions() <= 0 {
		return fmt.Errorf("search: embedder %s reports %d dimensions", emb.ModelID(), emb.Dimensions())
	}
	gate := gateFor(emb.ModelID())
	if e.cfg.Confidence != nil {
		gate = *e.cfg.Confidence
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	cur := e.state.Load()
	next := *cur
	e.vectors = newVectorStore(emb.Dimensions(), e.cfg.HNSW)
	e.dims.Store(int64(emb.Dimensions()))
	next.sem = newSemState(e.vectors.index, emb, gate, cur.documentTexts(), nil)
	if vs := e.restoreIndex(emb, &next.sem, gate, cur.snap.Version()); vs != nil {
		e.vectors = vs
	}
	e.state.Store(&next)
	return nil
}

// Close stops the background indexer and waits for it, and for the
// keyword index's save (Config.IndexDir). Searches keep
// working after Close (with the vectors indexed so far). Close is
// idempotent.
func (e *Engine) Close() error {
	if e.stop != nil {
		e.stop()
		<-e.done
	}
	if e.learner != nil {
		e.learner.close()
	}
	e.saving.Wait()
	return nil
}

// MaxResultsCap is the effective cap on results per search.
func (e *Engine) MaxResultsCap() int { return e.cfg.MaxResultsCap }

// Snapshot returns the catalog snapshot searches currently read.
func (e *Engine) Snapshot() *catalog.Snapshot { return e.state.Load().snap }

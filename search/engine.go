package search

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/fallback"
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
	// AvailableToolsCap is the most tool names listed in a no-match result.
	// 0 means DefaultAvailableToolsCap (100).
	AvailableToolsCap int
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
	// MaxTools, when positive, is the most tools the catalog may hold: an
	// Upsert that would grow it past the limit changes nothing and returns
	// an error wrapping ErrCatalogFull. 0 means no limit.
	MaxTools int
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

	// sessions holds the session reveal sets (session.go).
	sessions *sessionStore
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
	e.state.Store(newState(snap, nil))
	connect := e.cfg.Connect
	switch {
	case e.cfg.Embedder != nil:
		if err := e.attach(e.cfg.Embedder); err != nil {
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
	e.vectors = newVectorStore(emb.Dimensions(), e.cfg.HNSW)
	cur := e.state.Load()
	next := *cur
	next.sem = newSemState(e.vectors.index, emb, gate, documentTexts(cur.snap), nil)
	e.state.Store(&next)
	return nil
}

// Close stops the background indexer and waits for it. Searches keep
// working after Close (with the vectors indexed so far). Close is
// idempotent.
func (e *Engine) Close() error {
	if e.stop != nil {
		e.stop()
		<-e.done
	}
	return nil
}

// MaxResultsCap is the effective cap on results per search.
func (e *Engine) MaxResultsCap() int { return e.cfg.MaxResultsCap }

// Snapshot returns the catalog snapshot searches currently read.
func (e *Engine) Snapshot() *catalog.Snapshot { return e.state.Load().snap }

// Search answers one request. Errors wrap ErrInvalidArgument for bad
// requests (too long, bad pattern, bad page token, bad visible pattern).
func (e *Engine) Search(ctx context.Context, req Request) (Result, error) {
	start := time.Now()
	st := e.state.Load()
	limit, err := req.normalize(e.cfg.MaxResultsCap)
	if err != nil {
		return Result{}, err
	}
	allow, err := st.scope(req.Visible, req.Category)
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	res := Result{Metadata: Metadata{
		RequestedSearchType: req.requested(),
		Query:               req.Query,
		CatalogVersion:      st.snap.Version(),
	}}
	query := strings.TrimSpace(req.Query)
	lexicalStart := time.Now()
	switch {
	case query == "":
		err = st.browse(&res, req.PageToken, limit, allow)
	case req.Mode == ModeRegex:
		err = st.regex(&res, query, limit, allow, req.Debug)
	case req.Mode == ModeKeyword:
		err = st.lexical(&res, req, query, limit, allow)
	default:
		err = e.defaultSearch(ctx, st, &res, req, query, limit, allow)
	}
	if err != nil {
		return Result{}, err
	}
	if len(res.References) == 0 && res.Metadata.SearchType != ModeBrowse {
		st.noMatch(&res, query, allow, e.cfg.AvailableToolsCap)
	}
	// Lexical time is what the search took beyond the semantic stages.
	stg := &res.Metadata.Stages
	stg.Lexical = max(0, time.Since(lexicalStart)-stg.QueryEmbedding-stg.VectorSearch)
	res.Metadata.Elapsed = time.Since(start)
	e.recordReveals(req, res)
	return res, nil
}

// state is one immutable generation of the engine: a catalog snapshot and
// the indexes built from it.
type state struct {
	snap *catalog.Snapshot
	lex  *fallback.Index
	// server and category hold each tool's server and category lowercased,
	// for category filters.
	server, category []string
	// sem is the semantic view; nil without an embedder.
	sem *semState
}

// newState builds the state of snap. When prev has a semantic view, the
// new state has one with the same embedder, and tools whose document text
// is unchanged keep prev's vectors; the others have none until embedded.
func newState(snap *catalog.Snapshot, prev *state) *state {
	tools := snap.Tools()
	docs := make([]fallback.Document, len(tools))
	st := &state{
		snap:     snap,
		server:   make([]string, len(tools)),
		category: make([]string, len(tools)),
	}
	for i, t := range tools {
		docs[i] = lexicalDocument(t)
		st.server[i] = strings.ToLower(t.Server)
		st.category[i] = strings.ToLower(t.Category)
	}
	st.lex = fallback.NewIndex(docs)
	if prev == nil || prev.sem == nil {
		return st
	}
	ps := prev.sem
	st.sem = newSemState(ps.index, ps.embedder, ps.gate, documentTexts(snap), ps.pc)
	for i, t := range tools {
		j, ok := prev.snap.Lookup(t.Name)
		if ok && ps.vid[j] >= 0 && ps.text[j] == st.sem.text[i] {
			st.sem.set(i, ps.vid[j], ps.vec[j])
		}
	}
	return st
}

// documentTexts returns the embedding text of every tool of snap.
func documentTexts(snap *catalog.Snapshot) []string {
	tools := snap.Tools()
	texts := make([]string, len(tools))
	for i, t := range tools {
		texts[i] = documentText(t)
	}
	return texts
}

// lexicalDocument is the text of a tool as the lexical scorers see it.
func lexicalDocument(t catalog.Tool) fallback.Document {
	params := t.Parameters()
	d := fallback.Document{
		Name:        t.Name,
		Server:      t.Server,
		Category:    t.Category,
		Description: t.Description,
		ParamNames:  make([]string, len(params)),
		ParamDescs:  make([]string, len(params)),
	}
	for i, p := range params {
		d.ParamNames[i] = p.Name
		d.ParamDescs[i] = p.Description
	}
	return d
}

// reference turns a hit into a Reference.
func (st *state) reference(h fallback.Hit, debug bool) Reference {
	t := st.snap.Tool(h.ID)
	r := Reference{Name: t.Name, Score: clamp01(h.Score), Summary: t.Summary(), Server: t.Server}
	if debug {
		r.Explanation = h.Explain
	}
	return r
}

// fill sets the result's references from hits (already sorted and cut).
func (st *state) fill(res *Result, mode Mode, r fallback.Result, limit int, debug bool) {
	res.Metadata.SearchType = mode
	res.TotalMatches = r.Total
	hits := r.Hits
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	res.References = make([]Reference, len(hits))
	for i, h := range hits {
		res.References[i] = st.reference(h, debug)
	}
}

func clamp01(x float64) float64 {
	switch {
	case x != x || x < 0: // NaN or negative
		return 0
	case x > 1:
		return 1
	}
	return x
}

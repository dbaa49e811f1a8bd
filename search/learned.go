package search

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/fallback"
	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/query"
)

// Learning from use. With Config.Learn.Store set, the engine remembers
// each session's searches (session.go), ReportToolUse credits a tool's use
// to the queries that revealed it (learn.Attribute), in the learning scope
// of those searches (learnScope: the request's visible set and category
// filter), and the default, semantic and keyword modes lift the tools whose
// learned queries, in the request's own learning scope, resemble the
// request:
//
//	similarity  s = max(keyword, centroid)
//	  keyword   the tool's learned queries as a field of their own: a
//	            separate BM25F index (fallback.NewIndex) with one document
//	            per tool that learned something, scored × the share of the
//	            query's words it knows (Result.Coverage)
//	  centroid  cosine between the query's vector and the weighted mean of
//	            the learned queries' vectors, above learnCosineFloor,
//	            rescaled to [0, 1]
//	evidence    e = W / (W + learnEvidenceHalf), W the tool's summed decayed
//	            learned weight (≈ sessions that used it)
//	boost       b = learnWeight · e · s
//	score'      score + b · (1 − score)
//
// So learning lifts a tool by at most learnWeight of its distance to 1,
// and only as far as the evidence and the resemblance go; a tool that is
// not among the candidates joins only with the evidence of several
// sessions (learnJoinEvidence); it never adds a tool outside the request's
// scope and filters (plan.allow), and a query
// that is exactly a tool's name still ranks that tool first (exactFirst
// runs after). With Config.Learn.Store nil none of this runs: the results
// are those of an engine without learning, bit for bit.
//
// Learned state is keyed by tool name, never by index: a tool whose
// content changes keeps it, a deleted tool's is dropped (learner.rebuild).

// learnWeight bounds the learned boost: a tool whose learned queries match
// the request perfectly, with ample evidence, moves 45 % of the way from
// its score to 1. Measured on the dev sets' replay (docs/benchmarks.md,
// "Learning from use"; nDCG@10 gain learning on even/odd ids, bfcl ·
// livemcpbench · stabletoolbench): 0.45 gave +0.047/+0.054 ·
// +0.006/+0.010 · +0.001/+0.004; 0.35 gave +0.042/+0.047 · +0.008/+0.008
// · −0.002/+0.006; 0.6 (floor 0.8) gave +0.053/+0.065 · +0.007/+0.011 ·
// −0.007/−0.004: learned neighbours crowd out the right tools of
// stabletoolbench's multi-tool requests.
const learnWeight = 0.45

// learnEvidenceHalf is the learned weight at which evidence counts half:
// one session's successful use (weight 1) gives e = 0.5, three give 0.75.
// One session can add at most weight 1 to a tool (learn.Store.Record), so
// alone it never gets past e = 0.5.
const learnEvidenceHalf = 1.0

// learnJoinEvidence is the learned weight a tool needs to join a result
// that the catalog's own text did not put among the candidates (the
// fusionDepth best of each path). Below it, learning only reorders
// candidates. One session adds at most weight 1, so no single session —
// however many uses it reports, for whatever queries — can put a tool into
// results for a query its text does not match (the poisoning test,
// server/learned_test.go); two sessions that used it can.
const learnJoinEvidence = 2.0

// learnCosineFloor is the centroid cosine below which the centroid signal
// is 0; above it the cosine is rescaled to [0, 1] (0.925 maps to 0.5).
// Built-in model vectors of long requests are close to each other whatever
// they ask: with a floor of 0.6 the centroid lifted the wrong tools and
// cost stabletoolbench 0.013–0.016 nDCG@10 on replay; 0.75 cost up to
// 0.001; 0.8 and 0.85 gain on every set (0.85 a little more on
// stabletoolbench).
const learnCosineFloor = 0.85

// learnMinBoost is the smallest boost applied; smaller ones are noise and
// would only clutter provenance.
const learnMinBoost = 0.005

// LearnConfig turns learning from use on. The zero value (no Store) leaves
// it off.
type LearnConfig struct {
	// Store holds what is learned; nil turns learning off.
	Store *learn.Store
	// ReportRate and ReportBurst limit ReportToolUse per session (uses
	// per second, and at once); 0 means learn.DefaultReportRate and
	// learn.DefaultReportBurst.
	ReportRate  float64
	ReportBurst int
	// Sync rebuilds the learned index before ReportToolUse, ResetLearned
	// and ImportLearned return, instead of in the background (tests, and
	// eval's replay, which must see each report at once).
	Sync bool
	// Now is the rate limiter's clock, for tests; nil means time.Now.
	Now func() time.Time
	// Shared makes every scope learn together. By default each learning
	// scope — a request's visible set and category filter (learnScope) —
	// learns apart: one agent's usage never changes the ranking of an
	// agent configured with another scope.
	Shared bool
}

// maxScopeKey is the longest learning scope kept readable; a longer one
// (a large visible set) is replaced by a hash of it.
const maxScopeKey = 200

// learnScope is the learning scope of req: "" for a request without a
// visible set or category filter (or with LearnConfig.Shared), else
// "visible=NAMES;category=C" with the visible names sorted and
// deduplicated, or "sha256:" and 16 hex digits of it when longer than
// maxScopeKey. Requests with the same scope learn together.
func (e *Engine) learnScope(req Request) string {
	if e.learner == nil || e.learner.cfg.Shared || (len(req.Visible) == 0 && req.Category == "") {
		return ""
	}
	vis := slices.Clone(req.Visible)
	slices.Sort(vis)
	vis = slices.Compact(vis)
	key := "visible=" + strings.Join(vis, ",")
	if req.Category != "" {
		key += ";category=" + strings.ToLower(req.Category)
	}
	if len(key) > maxScopeKey {
		sum := sha256.Sum256([]byte(key))
		key = "sha256:" + hex.EncodeToString(sum[:8])
	}
	return key
}

// Outcome is how a reported tool call went.
type Outcome string

// Outcomes. A success teaches fully, an unknown outcome half, an error
// nothing.
const (
	OutcomeSuccess Outcome = "success"
	OutcomeError   Outcome = "error"
	OutcomeUnknown Outcome = "unknown"
)

// outcomeWeight is how much a use with outcome o teaches.
func outcomeWeight(o Outcome) float64 {
	switch o {
	case OutcomeSuccess:
		return 1
	case OutcomeUnknown, "":
		return 0.5
	}
	return 0
}

// ToolUse is one report that an agent's model called a tool.
type ToolUse struct {
	// SessionID is the session whose searches revealed the tool.
	SessionID string
	// Tool is the called tool's full name.
	Tool string
	// Outcome is how the call went ("" means OutcomeUnknown).
	Outcome Outcome
	// Query, when set, credits the use to the session's searches with this
	// query only; "" credits the latest searches that returned the tool.
	Query string
}

// UseReport says what a ToolUse taught.
type UseReport struct {
	// Recorded is set when the use taught the tool something.
	Recorded bool
	// Queries are the queries it was credited to, newest first.
	Queries []string
	// Reason says why nothing was recorded: "learning_disabled",
	// "unknown_session", "not_revealed", "error_outcome" or
	// "session_bound" (the session already taught this tool all it may);
	// "" when recorded.
	Reason string
}

// The reasons of UseReport.
const (
	ReasonLearningDisabled = "learning_disabled"
	ReasonUnknownSession   = "unknown_session"
	ReasonNotRevealed      = "not_revealed"
	ReasonErrorOutcome     = "error_outcome"
	ReasonSessionBound     = "session_bound"
)

// Learning reports whether learning from use is on.
func (e *Engine) Learning() bool { return e.learner != nil }

// ReportToolUse records that the model of session u.SessionID called
// u.Tool.
// Bad input (empty session id or tool, unknown outcome) wraps
// ErrInvalidArgument; a tool the catalog does not have wraps ErrNotFound;
// a session over its report rate wraps ErrRateLimited. With learning off,
// an unknown or expired session, or a tool no search of the session
// returned, the report is a no-op that says why (UseReport.Reason). Safe
// for concurrent use.
func (e *Engine) ReportToolUse(ctx context.Context, u ToolUse) (UseReport, error) {
	switch {
	case u.SessionID == "":
		return UseReport{}, invalid(fmt.Errorf("session_id is empty; pass the session id the searches carried"))
	case u.Tool == "":
		return UseReport{}, invalid(fmt.Errorf("tool_name is empty; pass the full name of the tool the model called"))
	case len(u.Query) > MaxQueryLength:
		return UseReport{}, invalid(fmt.Errorf("query is %d bytes long; use at most %d", len(u.Query), MaxQueryLength))
	}
	switch u.Outcome {
	case "", OutcomeSuccess, OutcomeError, OutcomeUnknown:
	default:
		return UseReport{}, invalid(fmt.Errorf("outcome %q: use success, error or unknown", u.Outcome))
	}
	if err := checkSessionID(u.SessionID); err != nil {
		return UseReport{}, err
	}
	if _, ok := e.Snapshot().Lookup(u.Tool); !ok {
		return UseReport{}, notFound(fmt.Errorf("tool %q is not in the catalog; report the full name the search returned", u.Tool))
	}
	l := e.learner
	if l == nil {
		return UseReport{Reason: ReasonLearningDisabled}, nil
	}
	if !l.limit.Allow(u.SessionID) {
		return UseReport{}, fmt.Errorf("session %q reports tool uses faster than %.3g per second: %w", u.SessionID, l.rate, ErrRateLimited)
	}
	normalized := ""
	if u.Query != "" {
		q, err := query.Parse(u.Query)
		if err != nil {
			return UseReport{}, invalid(fmt.Errorf("query: %w", err))
		}
		normalized = learn.NormalizeQuery(q.RankingText())
	}
	w := outcomeWeight(u.Outcome)
	if w == 0 {
		// A failed call teaches nothing, and does not count as a use that
		// shares its query with the tools used after it.
		return UseReport{Reason: ReasonErrorOutcome}, nil
	}
	credits, found := e.sessions.attribute(u.SessionID, u.Tool, normalized)
	switch {
	case !found:
		return UseReport{Reason: ReasonUnknownSession}, nil
	case len(credits) == 0:
		return UseReport{Reason: ReasonNotRevealed}, nil
	}
	rep := UseReport{}
	for _, c := range credits {
		if l.store.Record(learn.Use{Scope: c.Scope, Tool: u.Tool, Query: c.Query, Session: u.SessionID, Weight: w * c.Weight}) {
			rep.Recorded = true
			rep.Queries = append(rep.Queries, c.Query)
		}
	}
	if !rep.Recorded {
		rep.Reason = ReasonSessionBound
		return rep, nil
	}
	return rep, e.learnChanged(ctx)
}

// ResetLearned forgets what tool learned ("" forgets everything) and
// returns how many tools had learned something. Safe for concurrent use.
func (e *Engine) ResetLearned(ctx context.Context, tool string) (int, error) {
	if e.learner == nil {
		return 0, nil
	}
	n := 0
	if tool == "" {
		n = e.learner.store.ResetAll()
	} else if e.learner.store.Reset(tool) {
		n = 1
	}
	return n, e.learnChanged(ctx)
}

// RefreshLearned rebuilds the learned index from the store now (it is
// otherwise rebuilt in the background after each change). Call it after
// changing Config.Learn.Store directly (Import, Pull, Load).
func (e *Engine) RefreshLearned(ctx context.Context) error {
	if e.learner == nil {
		return nil
	}
	return e.learner.rebuild(ctx, e)
}

// learnChanged rebuilds the learned index now (LearnConfig.Sync) or wakes
// the background rebuild.
func (e *Engine) learnChanged(ctx context.Context) error {
	if e.learner.cfg.Sync {
		return e.learner.rebuild(ctx, e)
	}
	e.learner.nudge()
	return nil
}

// recordSearch remembers a search, in learning scope scope, for
// attribution when learning is on.
func (e *Engine) recordSearch(req Request, p *plan, res Result, scope string) {
	if e.learner == nil || req.SessionID == "" || p == nil || len(res.References) == 0 {
		return
	}
	switch res.Metadata.SearchType {
	case ModeBrowse, ModeSelect, ModeRegex:
		return // no query words to learn (a pattern is not a wording)
	}
	names := make([]string, len(res.References))
	for i, r := range res.References {
		names[i] = r.Name
	}
	e.sessions.recordSearch(req.SessionID, scope, learn.NormalizeQuery(p.query.RankingText()), names)
}

// learner holds the engine's learning side: the store, the rate limiter,
// and the current learned index, rebuilt from the store's View. It is safe
// for concurrent use: searches read the index through an atomic pointer;
// rebuilds are serialized by mu.
type learner struct {
	cfg   LearnConfig
	store *learn.Store
	limit *learn.Limiter
	rate  float64
	index atomic.Pointer[learnedIndexes]

	mu sync.Mutex
	// vecs caches learned queries' unit vectors by text and embedder
	// model; guarded by mu.
	vecs     map[string][]float32
	vecModel string

	wake     chan struct{}
	stop     context.CancelFunc
	done     chan struct{}
	stopOnce sync.Once
}

// learnedIndexes are the learned indexes of every scope of a learn.View
// against one catalog snapshot; immutable.
type learnedIndexes struct {
	version, snapVersion uint64
	// embedded: the centroids were computed (an embedder was connected).
	embedded bool
	byScope  map[string]*learnedIndex
}

// learnedIndex is an immutable index of one scope of a learn.View.
type learnedIndex struct {
	// names are the learning tools by document ID of kw.
	names    []string
	kw       *fallback.Index
	evidence []float64
	// centroid is each tool's unit learned-query centroid (nil without an
	// embedder); model is the embedder that made them.
	centroid [][]float32
	model    string
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

func (l *learner) close() {
	l.stop()
	<-l.done
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
	var emb embed.Embedder
	if st.sem != nil {
		emb = st.sem.embedder
	}
	ixs := &learnedIndexes{version: v.Version, snapVersion: st.snap.Version(), embedded: emb != nil, byScope: map[string]*learnedIndex{}}
	for _, scope := range v.Scopes() {
		ix, err := l.build(ctx, emb, v, scope)
		if err != nil {
			return err
		}
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

// build indexes one scope of v. Callers hold mu.
func (l *learner) build(ctx context.Context, emb embed.Embedder, v *learn.View, scope string) (*learnedIndex, error) {
	ix := &learnedIndex{}
	docs := make([]fallback.Document, 0, len(v.Tools(scope)))
	for _, t := range v.Tools(scope) {
		tv := v.Tool(scope, t)
		texts := make([]string, len(tv.Queries))
		for i, q := range tv.Queries {
			texts[i] = q.Text
		}
		ix.names = append(ix.names, t)
		ix.evidence = append(ix.evidence, tv.Weight)
		docs = append(docs, fallback.Document{Description: strings.Join(texts, ". ")})
	}
	ix.kw = fallback.NewIndex(docs)
	if emb != nil && len(ix.names) > 0 {
		if err := l.centroids(ctx, emb, v, scope, ix); err != nil {
			return nil, err
		}
	}
	return ix, nil
}

// centroids fills ix.centroid with each tool's weighted mean learned-query
// vector, embedding the queries not cached yet.
func (l *learner) centroids(ctx context.Context, emb embed.Embedder, v *learn.View, scope string, ix *learnedIndex) error {
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
	ix.centroid = make([][]float32, len(ix.names))
	for i, t := range ix.names {
		var c []float64
		for _, q := range v.Tool(scope, t).Queries {
			vec := l.vecs[q.Text]
			if vec == nil {
				continue
			}
			if c == nil {
				c = make([]float64, len(vec))
			}
			for k, x := range vec {
				c[k] += q.Weight * float64(x)
			}
		}
		out := make([]float32, len(c))
		for k, x := range c {
			out[k] = float32(x)
		}
		embed.Normalize(out)
		ix.centroid[i] = out
	}
	return nil
}

// Learned is the provenance of a learned boost on one result.
type Learned struct {
	// Signal is the learned signal that lifted the tool: "learned_queries"
	// (its learned queries matched the request's words) or
	// "learned_centroid" (the request's meaning is close to them).
	Signal string
	// Boost is the score added by learning, before calibration.
	Boost float64
	// Similarity is the signal's similarity in [0, 1], and Evidence the
	// tool's learned weight (≈ sessions that used it, decayed).
	Similarity, Evidence float64
}

// The signals of Learned.
const (
	SignalLearnedQueries  = "learned_queries"
	SignalLearnedCentroid = "learned_centroid"
)

// applyLearned lifts the hits of m by what the engine learned in the
// request's learning scope (see the top of this file) and re-sorts them;
// tools in the request's scope that learned something close to the request
// join the hits. Without learning, or for fuzzy matches, m is returned as
// is.
func (e *Engine) applyLearned(st *state, p *plan, m matches, scope string) matches {
	if e.learner == nil || m.mode == ModeFuzzy {
		return m
	}
	ixs := e.learner.index.Load()
	if ixs == nil {
		return m
	}
	if ixs.snapVersion != st.snap.Version() || (!ixs.embedded && st.sem != nil && len(ixs.byScope) > 0) {
		e.learner.nudge() // the catalog or the embedder changed since the index was built
	}
	ix := ixs.byScope[scope]
	if ix == nil || len(ix.names) == 0 {
		return m
	}
	text := p.query.RankingText()
	if text == "" {
		return m
	}
	sim := make([]float64, len(ix.names))
	signal := make([]string, len(ix.names))
	if q, err := query.Parse(text); err == nil {
		r := ix.kw.Keyword(q, fallback.Options{Limit: fusionDepth})
		for _, h := range r.Hits {
			sim[h.ID], signal[h.ID] = h.Score*r.Coverage, SignalLearnedQueries
		}
	}
	if ix.centroid != nil && e.queries != nil && st.sem != nil && st.sem.embedder.ModelID() == ix.model {
		if raw, ok := e.queries.get(text); ok {
			qv := slices.Clone(raw) // the query cache's own
			embed.Normalize(qv)
			for i, c := range ix.centroid {
				s := clamp01((dot(qv, c) - learnCosineFloor) / (1 - learnCosineFloor))
				if s > sim[i] {
					sim[i], signal[i] = s, SignalLearnedCentroid
				}
			}
		}
	}
	pos := make(map[int]int, len(m.hits))
	hits := make([]hit, len(m.hits), len(m.hits)+8)
	copy(hits, m.hits)
	for i, h := range hits {
		pos[h.id] = i
	}
	changed := false
	for i, name := range ix.names {
		if sim[i] <= 0 {
			continue
		}
		ev := ix.evidence[i] / (ix.evidence[i] + learnEvidenceHalf)
		b := learnWeight * ev * sim[i]
		if b < learnMinBoost {
			continue
		}
		id, ok := st.snap.Lookup(name)
		if !ok || (p.allow != nil && !p.allow(id)) {
			continue
		}
		j, in := pos[id]
		if !in && ix.evidence[i] < learnJoinEvidence {
			continue
		}
		if !in {
			j = len(hits)
			hits = append(hits, hit{id: id})
			pos[id] = j
		}
		h := &hits[j]
		before := h.score
		h.score = before + b*(1-before)
		h.learned = &Learned{Signal: signal[i], Boost: h.score - before, Similarity: sim[i], Evidence: ix.evidence[i]}
		if p.debug {
			h.explain += fmt.Sprintf("; learned: %s similarity %.3f × evidence %.3f (weight %.2f) × %.2f = boost %.3f → %.3f",
				signal[i], sim[i], ev, ix.evidence[i], learnWeight, b, h.score)
		}
		changed = true
	}
	if !changed {
		return m
	}
	sortHits(hits, st.name)
	m.hits = hits
	m.total = max(m.total, len(hits))
	return m
}

// dot is the dot product of two vectors of the same length (0 if not).
func dot(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// LearnedView returns what the engine has learned, as of now (nil when
// learning is off). Safe for concurrent use.
func (e *Engine) LearnedView() *learn.View {
	if e.learner == nil {
		return nil
	}
	return e.learner.store.View()
}

// LearnConfig returns the engine's learning configuration (its Store is
// nil when learning is off).
func (e *Engine) LearnConfig() LearnConfig {
	if e.learner == nil {
		return LearnConfig{}
	}
	return e.learner.cfg
}

package search

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/fallback"
)

// exactScopeLimit: when a request's scope allows at most this many tools,
// semantic search scores them all exactly instead of filtering HNSW
// results, which could leave fewer than asked for. 4,096 dot products of
// 100 dimensions take about 0.2 ms.
const exactScopeLimit = 4096

// semanticOutcome is why the semantic path could not answer.
type semanticOutcome struct {
	reason string
	err    error
}

// defaultSearch answers the default and semantic modes: select:, then the
// semantic path gated by confidence, with keyword (then fuzzy) search as
// the fallback, and fusion of both when semantic search is confident.
func (e *Engine) defaultSearch(ctx context.Context, st *state, res *Result, req Request, query string, limit int, allow func(int) bool) error {
	q, err := fallback.ParseQuery(query)
	if err != nil {
		return invalid(fmt.Errorf("query %q: %w", query, err))
	}
	if len(q.Select) > 0 {
		st.fill(res, ModeSelect, st.lex.Select(q.Select, fallback.Options{Allow: allow, Explain: req.Debug}), 0, req.Debug)
		return nil
	}
	sem, out := e.semanticCandidates(ctx, st, q, allow, &res.Metadata.Stages)
	if out.err != nil {
		return out.err
	}
	if out.reason != "" {
		res.Metadata.FallbackReason = out.reason
		st.keyword(res, q, limit, allow, req.Debug)
		return nil
	}
	if e.cfg.SemanticOnly {
		st.semanticOnly(res, sem, limit, req.Debug)
		return nil
	}
	kw := st.lex.Keyword(q, fallback.Options{Limit: fusionDepth, Allow: allow, Explain: req.Debug})
	scores := make([]float64, len(sem))
	for i, s := range sem {
		scores[i] = s.sem
	}
	conf := st.sem.gate.confidence(scores)
	res.Metadata.Confidence = conf
	if conf < st.sem.gate.Threshold {
		// Not confident: the lexical chain (keyword, then fuzzy) answers if
		// it finds anything; otherwise the semantic results are still the
		// best there is.
		if len(kw.Hits) > 0 {
			res.Metadata.FallbackReason = ReasonLowConfidence
			st.fill(res, ModeKeyword, kw, limit, req.Debug)
			return nil
		}
		if fr, suggestion := st.lex.Fuzzy(q, fallback.Options{Limit: limit, Allow: allow, Explain: req.Debug}); len(fr.Hits) > 0 {
			res.Metadata.FallbackReason = ReasonLowConfidence
			st.fill(res, ModeFuzzy, fr, limit, req.Debug)
			st.suggest(res, suggestion)
			return nil
		}
	}
	fused := st.fuse(sem, kw.Hits, len(q.Terms), req.Debug)
	if hasConstraints(q) {
		fused = keepMatches(fused, kw.Hits)
	}
	fused = st.exactFirst(fused, q, allow)
	res.Metadata.SearchType = ModeHybrid
	res.TotalMatches = max(len(fused), kw.Total)
	if len(fused) > limit {
		fused = fused[:limit]
	}
	res.References = make([]Reference, len(fused))
	for i, s := range fused {
		res.References[i] = st.reference(fallback.Hit{ID: s.id, Score: s.fused, Explain: s.explain}, req.Debug)
	}
	return nil
}

// semanticOnly answers from the semantic candidates alone, scored by their
// cosine similarity.
func (st *state) semanticOnly(res *Result, sem []scored, limit int, debug bool) {
	res.Metadata.SearchType = ModeSemantic
	res.TotalMatches = len(sem)
	sem = sem[:min(limit, len(sem))]
	res.References = make([]Reference, len(sem))
	for i, s := range sem {
		res.References[i] = st.reference(fallback.Hit{ID: s.id, Score: s.sem, Explain: fmt.Sprintf("semantic: cosine %.3f", s.sem)}, debug)
	}
}

// semanticCandidates embeds the query and returns the fusionDepth nearest
// tools in scope with their cosine similarity, or why semantic search
// cannot answer. Only a cancelled request is an error.
func (e *Engine) semanticCandidates(ctx context.Context, st *state, q fallback.Query, allow func(int) bool, stages *Stages) ([]scored, semanticOutcome) {
	switch {
	case st.sem == nil:
		// No embedder (configured or connected yet).
		return nil, semanticOutcome{reason: ReasonEmbedderUnavailable}
	case st.sem.embedded < st.snap.Len():
		if IndexState(e.indexState.Load()) == IndexDegraded {
			return nil, semanticOutcome{reason: ReasonEmbedderUnavailable}
		}
		return nil, semanticOutcome{reason: ReasonIndexWarming}
	}
	text := semanticText(q)
	embedStart := time.Now()
	raw, ok := e.queries.get(text)
	if !ok {
		qctx, cancel := context.WithTimeout(ctx, e.cfg.QueryTimeout)
		vecs, err := st.sem.embedder.Embed(qctx, embed.Query, []string{text})
		cancel()
		switch {
		case ctx.Err() != nil:
			return nil, semanticOutcome{err: ctx.Err()}
		case isTimeout(err):
			return nil, semanticOutcome{reason: ReasonEmbedderTimeout}
		case err != nil || len(vecs) != 1:
			if err == nil {
				err = errors.New("no vector returned")
			}
			e.cfg.Log.Warn("embedding a query failed; answering with keyword search", "error", err.Error())
			return nil, semanticOutcome{reason: ReasonEmbedderUnavailable}
		}
		raw = vecs[0]
		e.queries.put(text, raw)
	}
	qv := project(raw, st.sem.pc)
	stages.QueryEmbedding = time.Since(embedStart)
	if isZeroVector(qv) {
		return nil, semanticOutcome{reason: ReasonLowConfidence}
	}
	vectorStart := time.Now()
	near := st.nearest(qv, allow)
	stages.VectorSearch = time.Since(vectorStart)
	return near, semanticOutcome{}
}

// nearest returns the fusionDepth tools in scope nearest to qv, best first.
func (st *state) nearest(qv []float32, allow func(int) bool) []scored {
	var out []scored
	if allow != nil && st.countAllowed(allow) <= exactScopeLimit {
		for i, v := range st.sem.vec {
			if v != nil && allow(i) {
				out = append(out, scored{id: i, sem: float64(dot(qv, v)), inSem: true})
			}
		}
	} else {
		// Filtering after the graph search may drop results: ask for more
		// than needed when a scope is set.
		k := fusionDepth
		if allow != nil {
			k *= 4
		}
		hits, err := st.sem.index.Search(qv, k)
		if err != nil {
			return nil
		}
		for _, h := range hits {
			i, ok := st.sem.tool[int32(h.ID)]
			if !ok || (allow != nil && !allow(int(i))) {
				continue // a vector of another state generation, or out of scope
			}
			out = append(out, scored{id: int(i), sem: float64(h.Score), inSem: true})
		}
	}
	st.sortScored(out, func(s scored) float64 { return s.sem })
	if len(out) > fusionDepth {
		out = out[:fusionDepth]
	}
	return out
}

// countAllowed counts the tools a scope allows.
func (st *state) countAllowed(allow func(int) bool) int {
	n := 0
	for i := range st.snap.Len() {
		if allow(i) {
			n++
		}
	}
	return n
}

func dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// semanticText is what is embedded for a query: its terms, without
// operators, filters or excluded terms.
func semanticText(q fallback.Query) string {
	words := make([]string, 0, len(q.Terms))
	for _, t := range q.Terms {
		if !t.Excluded {
			words = append(words, t.Text)
		}
	}
	return strings.Join(words, " ")
}

// hasConstraints reports whether q filters tools (+term, -term, server:,
// category:), which only the keyword path can check.
func hasConstraints(q fallback.Query) bool {
	if len(q.Servers) > 0 || len(q.Categories) > 0 {
		return true
	}
	for _, t := range q.Terms {
		if t.Required || t.Excluded {
			return true
		}
	}
	return false
}

// keepMatches keeps the fused candidates that keyword search matched: with
// constraints, those are exactly the tools that satisfy them.
func keepMatches(fused []scored, kw []fallback.Hit) []scored {
	ok := make(map[int]bool, len(kw))
	for _, h := range kw {
		ok[h.ID] = true
	}
	out := fused[:0]
	for _, s := range fused {
		if ok[s.id] {
			out = append(out, s)
		}
	}
	return out
}

// exactFirst moves the tool whose name is exactly the query (without
// quotes or backticks) to the top with score 1, if it is in scope.
func (st *state) exactFirst(cs []scored, q fallback.Query, allow func(int) bool) []scored {
	name := strings.Trim(strings.TrimSpace(q.Raw), "\"`'")
	i, ok := st.snap.Lookup(name)
	if !ok || (allow != nil && !allow(i)) {
		return cs
	}
	out := make([]scored, 0, len(cs)+1)
	out = append(out, scored{id: i, fused: 1, explain: "exact name"})
	for _, c := range cs {
		if c.id != i {
			out = append(out, c)
		}
	}
	return out
}

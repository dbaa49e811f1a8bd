package search

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/fallback"
	"github.com/toolsearch/toolsearch/vectorindex"
)

// semanticMatches answers the default and semantic modes. It takes the
// fusionDepth nearest tools by vector (vectorCandidates) and the
// fusionDepth best by keyword, then:
//
//   - when semantic search cannot run (no embedder, index warming, embedder
//     failing or slow), keyword matches answer, with the reason;
//   - when the confidence gate (confidence.go) rejects the semantic
//     candidates, keyword matches answer (then fuzzy ones), with
//     ReasonLowConfidence; if neither finds anything, fusion still answers;
//   - otherwise the two lists are fused (fusion.go): mode ModeHybrid.
//
// Only a cancelled request is an error.
func (e *Engine) semanticMatches(ctx context.Context, st *state, p *plan) (matches, error) {
	vec, qv, stages, reason, err := e.vectorCandidates(ctx, st, p)
	if err != nil {
		return matches{}, err
	}
	if reason != "" {
		m := st.keywordMatches(p, fusionDepth)
		m.reason, m.stages = reason, stages
		return m, nil
	}
	if e.cfg.SemanticOnly {
		return matches{hits: vec, total: len(vec), mode: ModeSemantic, stages: stages, coverage: 1}, nil
	}
	lift, paths := st.valueTakers(p)
	kw := st.lex.Keyword(p.query, fallback.Options{Limit: fusionDepth, Allow: p.allow, Explain: p.debug, Expand: true, CoverageVerbs: coverageVerbs, PathKinds: paths})
	kwHits := st.boostPathTakers(lift, fromFallback(kw.Hits))
	conf := st.sem.gate.confidence(vec)
	cosine := 0.0
	if len(vec) > 0 {
		cosine = vec[0].score
	}
	var learned []hit // vec with the learned vectors, when the gate passed on them
	if conf < st.sem.gate.Threshold && p.learned != nil {
		if lv := e.learnedVectors(st, p, qv, vec, foundBy(vec, kw.Hits)); learnedGatePasses(lv) {
			learned, p.learned.gated = lv, true
		}
	}
	if conf < st.sem.gate.Threshold && learned == nil {
		if len(kw.Hits) > 0 {
			m := matches{hits: kwHits, total: kw.Total, mode: ModeKeyword, reason: ReasonLowConfidence,
				confidence: conf, cosine: cosine, unmatched: kw.Unmatched, coverage: kw.Coverage, whenCoverage: kw.WhenCoverage, tally: kw.Tally, stages: stages}
			m.agreed, m.agreedID = rankedFirst(vec, m.hits)
			if p.learned != nil {
				m.rejected = vec // matches.rejectedHas
			}
			return m, nil
		}
		if fm, ok := st.fuzzyMatches(p, fusionDepth); ok {
			fm.cosine = cosine
			fm.reason, fm.confidence, fm.unmatched, fm.stages = ReasonLowConfidence, conf, kw.Unmatched, stages
			fm.agreed, fm.agreedID = rankedFirst(vec, fm.hits)
			return fm, nil
		}
	}
	agreed := len(vec) > 0 && (len(kw.Hits) == 0 || kw.Hits[0].ID == vec[0].id)
	agreedID := -1
	if agreed {
		agreedID = vec[0].id
	}
	if learned != nil {
		vec = learned
	} else if p.learned != nil {
		vec = e.learnedVectors(st, p, qv, vec, foundBy(vec, kw.Hits))
	}
	fused := fuse(vec, kwHits, len(p.query.Terms), p.debug)
	if p.filtered {
		fused = keep(fused, p.allow)
	}
	sortHits(fused, st.name)
	return matches{hits: fused, total: max(len(fused), kw.Total), mode: ModeHybrid, confidence: conf, cosine: cosine,
		unmatched: kw.Unmatched, coverage: kw.Coverage, whenCoverage: kw.WhenCoverage, tally: kw.Tally, stages: stages, agreed: agreed, agreedID: agreedID}, nil
}

// rankedFirst reports whether the semantic candidates vec and the lexical
// hits hs rank the same tool first, and which (-1 if not): the agreement
// that lets semantic evidence vouch for a lexical answer after the gate
// rejected the candidates (vouch.go).
func rankedFirst(vec, hs []hit) (bool, int) {
	if len(vec) == 0 || len(hs) == 0 || vec[0].id != hs[0].id {
		return false, -1
	}
	return true, vec[0].id
}

// vectorCandidates embeds the query's ranking words and returns the
// fusionDepth nearest tools in the request's scope, best first, scored by
// cosine similarity; or the reason semantic search cannot answer. Only a
// cancelled request is an error.
//
// The query's own filters (+term, -term, server:, category:) are not
// applied here but after fusion (semanticMatches): the gate asks whether
// the query's meaning singles out a tool of the catalog, and a filter that
// keeps a handful of similar tools would make every such list look flat;
// and the semantic scores are scaled against the whole catalog's nearest
// tools, not only the filtered ones.
func (e *Engine) vectorCandidates(ctx context.Context, st *state, p *plan) ([]hit, []float32, Stages, string, error) {
	var stages Stages
	switch {
	case st.sem == nil:
		// No embedder (configured or connected yet).
		return nil, nil, stages, ReasonEmbedderUnavailable, nil
	case !st.sem.searchable(st.snap.Len()):
		if IndexState(e.indexState.Load()) == IndexDegraded {
			return nil, nil, stages, ReasonEmbedderUnavailable, nil
		}
		return nil, nil, stages, ReasonIndexWarming, nil
	}
	text := p.rankingText()
	embedStart := time.Now()
	raw, ok := e.queries.get(text)
	if !ok {
		qctx, cancel := context.WithTimeout(ctx, e.cfg.QueryTimeout)
		vecs, err := st.sem.embedder.Embed(qctx, embed.Query, []string{text})
		cancel()
		switch {
		case ctx.Err() != nil:
			return nil, nil, stages, "", ctx.Err()
		case isTimeout(err):
			return nil, nil, stages, ReasonEmbedderTimeout, nil
		case err != nil || len(vecs) != 1:
			if err == nil {
				err = errors.New("no vector returned")
			}
			e.cfg.Log.Warn("embedding a query failed; answering with keyword search", "error", err.Error())
			return nil, nil, stages, ReasonEmbedderUnavailable, nil
		}
		raw = vecs[0]
		e.queries.put(text, raw)
		if IndexState(e.indexState.Load()) == IndexDegraded {
			// The embedder answers again. With nothing left to embed the
			// index is ready now, not when the indexer's backoff ends;
			// otherwise the indexer retries at once.
			if st.sem.embedded == st.snap.Len() {
				e.indexState.CompareAndSwap(int32(IndexDegraded), int32(IndexReady))
			} else {
				e.nudge()
			}
		}
	}
	if p.learned != nil && e.queries != nil {
		p.learned.raw = raw // as the cache holds it now, for applyLearned
	}
	near, qv := st.nearestToQuery(raw, p.scope, p.debug, embedStart, &stages)
	if qv == nil {
		// No query word is in the model's vocabulary.
		return nil, nil, stages, ReasonLowConfidence, nil
	}
	return near, qv, stages, "", nil
}

// nearestToQuery projects a query's raw vector into the index's space and
// returns the tools allow admits nearest to it (nearest) with the
// projected vector, timing the embedding from embedStart and the vector
// search in stages; nil, nil when the projection is zero (no query word
// is in the model's vocabulary). Shared by a semantic search
// (vectorCandidates) and a keyword search's semantic check
// (semanticEvidence), which differ only in how they get the raw vector.
func (st *state) nearestToQuery(raw []float32, allow func(int) bool, debug bool, embedStart time.Time, stages *Stages) ([]hit, []float32) {
	qv := project(raw, st.sem.pc)
	stages.QueryEmbedding = time.Since(embedStart)
	if isZeroVector(qv) {
		return nil, nil
	}
	vectorStart := time.Now()
	near := st.nearest(qv, allow, debug)
	stages.VectorSearch = time.Since(vectorStart)
	return near, qv
}

// nearest returns the fusionDepth tools that allow admits (nil: all)
// nearest to qv, best first, scored by cosine similarity. The vector index
// chooses how (vectorindex.HNSW.SearchFilter): an exact scan when the scope
// keeps few tools or the catalog is small, else the graph walked with the
// scope applied during the walk — never short, never over-fetched.
func (st *state) nearest(qv []float32, allow func(int) bool, debug bool) []hit {
	var keep *vectorindex.IDSet
	if allow != nil {
		keep = vectorindex.NewIDSet()
		for i, id := range st.sem.vid {
			if id >= 0 && allow(i) {
				keep.Add(int(id))
			}
		}
	}
	found, err := st.sem.index.SearchFilter(qv, fusionDepth, keep)
	if err != nil {
		return nil
	}
	out := make([]hit, 0, len(found))
	for _, h := range found {
		if i, ok := st.sem.toolOf(int32(h.ID)); ok { // else a vector of another state generation
			out = append(out, hit{id: i, score: float64(h.Score)})
		}
	}
	sortHits(out, st.name)
	if debug {
		for i := range out {
			out[i].explain = fmt.Sprintf("semantic: cosine %.3f", out[i].score)
		}
	}
	return out
}

// keep returns the hits that allow admits, in order; nil allows all. (A
// query may have filters that exclude nothing: "-jira" over a catalog
// without the word has no filter to apply.)
func keep(hs []hit, allow func(int) bool) []hit {
	if allow == nil {
		return hs
	}
	out := hs[:0:0]
	for _, h := range hs {
		if allow(h.id) {
			out = append(out, h)
		}
	}
	return out
}

// foundBy returns whether the catalog's own text put a tool among the
// semantic candidates vec or the keyword hits kw (at most fusionDepth
// each). It reads the two lists, without building a set on every search:
// learnedVectors asks only about the few tools its learned vectors would
// add.
func foundBy(vec []hit, kw []fallback.Hit) func(int) bool {
	return func(id int) bool {
		for _, h := range vec {
			if h.id == id {
				return true
			}
		}
		for _, h := range kw {
			if h.ID == id {
				return true
			}
		}
		return false
	}
}

// learnedGatePasses reports whether the learned vectors (learnedVectors)
// put a tool among the semantic candidates vec: a learned query within
// learnedVectorJoin of the request. The gate's threshold is calibrated on
// cosines between a request and a tool's description; a learned query is
// another request, a rewording of this one at that closeness, so it is
// judged on a scale of its own: a search whose catalog cosines the gate
// rejects is fused when a learned query is that close. Learning then
// lifts the tools the request's meaning found through it as in any fused
// search, but does not vouch for them to the no-match rules
// (learnedAgrees: learnedStage.gated), which judge the request against the
// tools' own text: "call the dentist", learned from one session's "push
// my dentist appointment on Friday to 4pm" at cosine 0.84, ranks
// calendar__update_event first and is still flagged. Measured in
// docs/benchmarks.md ("The gate reads learned queries on their own
// scale").
func learnedGatePasses(vec []hit) bool {
	for _, h := range vec {
		if h.learned != nil && h.learned.Signal == SignalLearnedVectors {
			return true
		}
	}
	return false
}

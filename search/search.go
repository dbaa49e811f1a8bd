package search

import (
	"context"
	"time"
)

// Search answers one request. The request travels through one pipeline:
//
//	plan (plan.go)        the query parsed once, limits and scope checked
//	candidates            one stage by what answers the plan: browse
//	                      (browse.go), select: or keyword or regex
//	                      (lexical.go; a default-mode query that is a
//	                      pattern tries regex first), a no-match for a
//	                      query without words, or vector and keyword candidates
//	                      fused behind the confidence gate (semantic.go,
//	                      fusion.go, confidence.go)
//	learned (learned.go)  with learning from use on, the candidates agents
//	                      used for similar queries are lifted; the stage's
//	                      lexical half (learnedWords) and, with the query's
//	                      vector cached, its vector screens (learnedSights)
//	                      run on a goroutine beside the candidates, joined
//	                      before the search returns
//	result (result.go)    exact-first, calibrated scores, top band, limit,
//	                      the reference format
//
// Errors wrap ErrInvalidArgument for bad requests (too long, bad pattern,
// bad page token, bad visible pattern), or are the context's error when
// ctx ends first.
func (e *Engine) Search(ctx context.Context, req Request) (Result, error) {
	start := time.Now()
	st := e.state.Load()
	p, err := st.newPlan(req, e.limits())
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	scope := e.learnScope(req)
	p.learnScope = scope
	k := p.kind()
	if k == kindSemantic || k == kindKeyword || k == kindPattern {
		// The learned stage's lexical half runs beside the candidates,
		// except behind a pattern, which regex may answer alone.
		p.learned = e.beginLearned(st, p, k != kindPattern)
		defer p.learned.end()
	}
	var res Result
	switch k {
	case kindBrowse:
		res, err = st.browse(p)
	case kindSelect:
		res = st.result(p, st.selected(p), e.cfg.AvailableToolsCap)
	case kindRegex:
		var m matches
		if m, err = st.regexMatches(p); err == nil {
			res = st.result(p, m, e.cfg.AvailableToolsCap)
		}
	case kindNoWords:
		res = st.result(p, matches{mode: p.requested, coverage: 1}, e.cfg.AvailableToolsCap)
	case kindPattern:
		var m matches
		if m, err = st.regexMatches(p); err == nil && len(m.hits) > 0 {
			m.reason = ReasonPattern
			res = st.result(p, m, e.cfg.AvailableToolsCap)
			break
		}
		// No tool matches the pattern: its words may still find one.
		if m, err = e.semanticMatches(ctx, st, p); err == nil {
			res = st.result(p, e.applyLearned(st, p, m), e.cfg.AvailableToolsCap)
		}
	case kindKeyword:
		m := e.learnedKeyword(st, p)
		m.semantic = e.semanticEvidence(ctx, st, p)
		res = st.result(p, m, e.cfg.AvailableToolsCap)
	default:
		var m matches
		if m, err = e.semanticMatches(ctx, st, p); err == nil {
			res = st.result(p, e.applyLearned(st, p, m), e.cfg.AvailableToolsCap)
		}
	}
	if err != nil {
		return Result{}, err
	}
	res.Metadata.IndexState = IndexState(e.indexState.Load())
	res.Metadata.Elapsed = time.Since(start)
	stg := &res.Metadata.Stages
	stg.Lexical = max(0, res.Metadata.Elapsed-stg.QueryEmbedding-stg.VectorSearch)
	e.recordReveals(req, res)
	e.recordSearch(req, p, res, scope)
	return res, nil
}

package fallback

import (
	"cmp"
	"math"
	"slices"
)

// Pseudo-relevance feedback (see feedback): the prfTerms terms that best
// characterize the top prfDocs tools form a second query, and a tool's
// score becomes (1-prfWeight) × its own score + prfWeight × its score for
// that second query. A request that needs several tools of one server ("log
// me out, then fetch order 456") thereby lifts the best match's siblings
// (team_petstore__getorderbyid shares "petstore", "team"... with
// team_petstore__logoutuser) above other servers' look-alikes. Feedback only
// re-ranks tools that match the query; it never adds one.
//
// Worked example: a tool with score 0.60 that shares half of the feedback
// terms' weight scores 0.9 × 0.60 + 0.1 × 0.5 = 0.59; one with 0.60 that
// shares none drops to 0.54. Measured on the bench dev sets (nDCG@10):
// +0.01 on the multi-tool sets, neutral on the single-tool one; feedback
// from 2–3 tools, or prfWeight ≥ 0.15, loses (the 2nd and 3rd tools are too
// often wrong). Re-measured with phrase pairs and server smoothing
// (bfcl / livemcpbench / stabletoolbench): prfWeight 0 loses -0.003 /
// -0.008 / -0.002 against 0.1; 0.05 and 0.15 trade one set against
// another; prfTerms 10 or 30 are within ±0.002.
const (
	prfDocs   = 1
	prfTerms  = 20
	prfWeight = 0.1
)

// feedback re-ranks the candidates with pseudo-relevance feedback: the
// prfTerms terms that best characterize the top prfDocs candidates (field
// share × IDF, query terms excluded) form a second query; each candidate's
// score becomes (1-prfWeight) × its score + prfWeight × its normalized score
// for that second query. Only candidates (tools that match the query
// itself) are re-ranked: feedback never adds a tool.
func (ix *Index) feedback(s *scratch, p plan, cs []candidate) {
	rk := newRanker(ix)
	var topBuf [prfDocs]candidate
	top := topBuf[:0]
	if prfDocs == 1 {
		best := cs[0]
		for _, c := range cs[1:] {
			if rk.less(c, best) {
				best = c
			}
		}
		top = append(top, best)
	} else {
		top = append(top, rk.top(slices.Clone(cs), prfDocs)...)
	}
	var ets []expansion
	if l, ok := ix.expansionList(top[0]); ok && prfDocs == 1 {
		// The best tool's terms in expansionOrder, weighed for r = 1
		// (its own raw over itself), made when the index was built: the
		// first prfTerms that are not query terms are those
		// topExpansions keeps of what the loop below collects.
		ets = s.expansions[:0]
		for _, x := range l {
			if s.termPos[x.id] > 0 {
				continue // a query term
			}
			if ets = append(ets, x); len(ets) == prfTerms {
				break
			}
		}
		s.expansions = ets
	} else {
		ets = s.expansions[:0]
		for _, c := range top {
			ets = ix.collectExpansions(s.termPos, ets, c.id, c.raw/top[0].raw)
		}
		for _, x := range ets {
			s.termPos[x.id] = 0
		}
		s.expansions = ets
		ets = topExpansions(ets, prfTerms)
	}
	if len(ets) == 0 {
		return
	}
	// s.tools.slot (all zero between query words) holds the feedback scores. It
	// is read only for candidates, so the scores of other tools may be
	// summed too (that is cheaper than testing every posting).
	fb := s.tools.slot
	norm := 0.0
	written := 0 // postings summed into fb
	for _, x := range ets {
		ti := ix.termData.At(int(x.id))
		ps := ti.postings
		w := x.w / ets[0].w * ix.termIdf(x.id)
		norm += w * max(float64(ti.maxSat), ix.refSat)
		for _, post := range ps {
			fb[post.doc] += w * float64(post.sat)
		}
		written += len(ps)
	}
	for i := range cs {
		d := cs[i].id
		cs[i].raw = (1-prfWeight)*cs[i].raw + prfWeight*min(1, fb[d]/norm)
	}
	if written >= len(fb)/feedbackClearAll {
		// Feedback terms in many tools (the words that every learned
		// query of a template shares, in a learned-query index): zeroing
		// the whole array costs less than reading their postings again.
		clear(fb)
		return
	}
	for _, x := range ets {
		for _, post := range ix.termData.At(int(x.id)).postings {
			fb[post.doc] = 0
		}
	}
}

// collectExpansions appends to ets the feedback terms of tool id, weighed
// r (its raw score over the best's), and returns it: each term of the
// tool that is not a query term (termPos > 0, see plan), with its field
// share × IDF summed over the tool's fields. termPos marks the terms in
// ets with minus their position + 1; the caller zeroes those marks.
func (ix *Index) collectExpansions(termPos []int32, ets []expansion, id int, r float64) []expansion {
	d := ix.docs.At(id)
	total := 0.0
	for f := range numFields {
		total += fieldWeight[f] * float64(len(d.terms[f]))
	}
	if total == 0 {
		return ets
	}
	for f := range numFields {
		for _, t := range d.terms[f] {
			pos := termPos[t]
			if pos > 0 {
				continue // a query term
			}
			if pos == 0 {
				ets = append(ets, expansion{id: t})
				pos = -int32(len(ets))
				termPos[t] = pos
			}
			ets[-pos-1].w += r * fieldWeight[f] / total * ix.termIdf(t)
		}
	}
	return ets
}

// expansionList returns the feedback terms of best, the best candidate,
// made when the index was built (expansionLists), and whether there are
// such lists and best's raw score divides by itself to 1 (the weight
// feedback gives the best tool's terms).
func (ix *Index) expansionList(best candidate) ([]expansion, bool) {
	if ix.prfStart == nil || !(best.raw > 0) || math.IsInf(best.raw, 0) || best.id+1 >= len(ix.prfStart) {
		return nil, false
	}
	return ix.prfList[ix.prfStart[best.id]:ix.prfStart[best.id+1]], true
}

// expansionLists sets, for an index whose tools have no names (the
// learned stage's of package search: rebuilt whole, never updated by
// Apply, each tool's document holding every request it learned, hundreds
// of terms), each tool's feedback terms as feedback weighs them when it
// is the best candidate (collectExpansions with r = 1 and no query term),
// in expansionOrder: feedback then reads the first prfTerms that are not
// query terms, instead of weighing every term of the tool, reading each
// term's postings for its IDF, and keeping the best. An index that Apply
// updates has none (its IDFs change).
func (ix *Index) expansionLists() {
	if ix.maxName != 0 || ix.Len() == 0 {
		return
	}
	termPos := make([]int32, ix.termData.Len())
	ix.prfStart = make([]int32, ix.Len()+1)
	for id := range ix.Len() {
		ets := ix.collectExpansions(termPos, nil, id, 1)
		for _, x := range ets {
			termPos[x.id] = 0
		}
		slices.SortFunc(ets, expansionOrder)
		ix.prfList = append(ix.prfList, ets...)
		ix.prfStart[id+1] = int32(len(ix.prfList))
	}
}

// feedbackClearAll: feedback zeroes its scores' whole array (one pass of
// memory clearing, 8 bytes a tool) rather than reading back the postings
// it summed (a random write each) once these are at least 1/4 of the
// tools. Either way the array is all zero again, as the next query
// needs it.
const feedbackClearAll = 4

// expansion is a feedback term and its weight.
type expansion struct {
	id int32
	w  float64
}

// expansionOrder orders expansions by weight, the greatest first, then
// by term: a total order (a term is in one expansion), NaN weights last.
func expansionOrder(a, b expansion) int {
	if c := cmp.Compare(b.w, a.w); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// topExpansions returns the first k of ets in expansionOrder, in order,
// in ets' own memory (the rest of ets is left in any order): what sorting
// ets and keeping k gives, without sorting the rest. The best tool of a
// learned-query index holds every query its tool learned, hundreds of
// terms of which feedback keeps prfTerms.
func topExpansions(ets []expansion, k int) []expansion {
	if len(ets) <= k {
		slices.SortFunc(ets, expansionOrder)
		return ets
	}
	if k <= 0 {
		return ets[:0]
	}
	top := ets[:k]
	slices.SortFunc(top, expansionOrder)
	for j := k; j < len(ets); j++ {
		x := ets[j]
		if expansionOrder(x, top[k-1]) >= 0 {
			continue // not before the last kept
		}
		i, _ := slices.BinarySearchFunc(top, x, expansionOrder)
		ets[j] = top[k-1] // dropped
		copy(top[i+1:], top[i:k-1])
		top[i] = x
	}
	return top
}

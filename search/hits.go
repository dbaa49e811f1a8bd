package search

import (
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/fallback"
)

// hit is one candidate tool of one stage: its index in the state's
// snapshot, its score in [0, 1] and, on debug requests, how it was scored.
type hit struct {
	id      int
	score   float64
	explain string
	// learned is set when learning from use lifted the hit (learned.go).
	learned *Learned
}

// matches is what a candidate stage returns: its hits, best first, and how
// it produced them. The result stage (result.go) turns it into a Result.
type matches struct {
	// hits are the candidates, best first (score, then name); a stage may
	// return more than the plan's limit.
	hits []hit
	// total is the number of tools that matched, before any limit.
	total int
	// mode is the signal that produced hits.
	mode Mode
	// reason is why mode differs from the requested mode ("" if it does
	// not): one of the Reason constants.
	reason string
	// suggestion is fuzzy matching's "did you mean" correction.
	suggestion string
	// confidence is the semantic confidence when it was computed, and
	// cosine the best semantic candidate's cosine similarity (0 when
	// semantic search did not run).
	confidence, cosine float64
	// unmatched are the query words that occur nowhere in the catalog.
	unmatched []string
	// coverage is the share of the query's ranking words that occur in the
	// catalog (fallback.Result.Coverage); 1 where keyword search did not run.
	coverage float64
	// whenCoverage is coverage with the unknown words of a time left out
	// (fallback.Result.WhenCoverage), which ownActionCoverage reads when
	// the request names the top tool's thing (namesThing).
	whenCoverage float64
	// tally is what coverage was computed from (fallback.Result.Tally),
	// which argumentCoverage discounts.
	tally fallback.CoverageTally
	// stages is the time spent in the semantic stages.
	stages Stages
	// unlimited: the hits are not cut to the plan's limit (select:).
	unlimited bool
	// scanned: the regex matched every tool, the trigram index having no
	// literal to use.
	scanned bool
	// unknown are the names of a select: that name no tool in scope.
	unknown []string
	// agreed: the semantic path's best candidate, agreedID, is also the
	// keyword path's best (or, in a fused search, keyword search found
	// nothing); with the mode and the confidence, it decides whether
	// semantic evidence vouches for a search (vouch.go). Set by the
	// default and semantic modes' stage (semanticMatches), also when
	// the gate rejected the semantic candidates and keyword or fuzzy
	// search answers, and for a keyword search under the line by
	// keywordVouch.
	agreed   bool
	agreedID int
	// semantic, set for a keyword search the caller asked for when the
	// engine has a semantic index, returns the semantic candidates and
	// their gate confidence, computed only when called, and puts the time
	// it took in stg: the evidence a keyword answer under the line asks
	// for (keywordvouch.go). ok is false when semantic search cannot
	// answer.
	semantic func(stg *Stages) (vec []hit, confidence float64, ok bool)
	// askedSemantic: keywordVouch asked the semantic ranking, the gate
	// rejected its candidates, and agreed says whether its first tool is
	// the keyword answer's.
	askedSemantic bool
	// fusedTop, set by keywordVouch when the gate passes, is the keyword
	// answer's top fused with the semantic candidates as a default search
	// fuses them, when that clears the default mode's line (fusedLine);
	// 0 otherwise.
	fusedTop float64
	// rejected are the semantic candidates the confidence gate rejected
	// when keyword search answers in their place (semanticMatches), kept
	// only for a search with a learned stage (p.learned): tools the
	// catalog's own text found by meaning, which the learned stage may
	// lift into the answer as it lifts the candidates of a fused search
	// (applyLearned, rejectedHas).
	rejected []hit
}

// fromFallback converts the lexical scorers' hits.
func fromFallback(hs []fallback.Hit) []hit {
	out := make([]hit, len(hs))
	for i, h := range hs {
		out[i] = hit{id: h.ID, score: h.Score, explain: h.Explain}
	}
	return out
}

// sortHits sorts hits by score descending, then by tool name: a total
// order, since names are unique.
func sortHits(hs []hit, name func(int) string) {
	slices.SortFunc(hs, hitOrder(name))
}

// hitOrder is sortHits's order.
func hitOrder(name func(int) string) func(a, b hit) int {
	return func(a, b hit) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return strings.Compare(name(a.id), name(b.id))
	}
}

// resortHits sorts hs (hits of distinct tools) as sortHits does, when hs
// was in that order but for the hits at the positions moved (distinct,
// in any order), which changed score or were appended: it sorts those
// and merges them back among the others, O(n + k log k) comparisons
// instead of O(n log n). Since the order is total, the result is
// sortHits's. If the others are out of order, it sorts them all.
func resortHits(hs []hit, moved []int, name func(int) string) {
	order := hitOrder(name)
	slices.Sort(moved)
	last, k := -1, 0 // the other hit last seen
	for i := range hs {
		if k < len(moved) && moved[k] == i {
			k++
			continue
		}
		if last >= 0 && order(hs[last], hs[i]) > 0 {
			sortHits(hs, name)
			return
		}
		last = i
	}
	var buf [fusionDepth]hit // the learned stage moves fewer, most of the time: no allocation
	mv := buf[:0]
	n := 0 // hs[:n] are the others, in their order
	k = 0
	for i, h := range hs {
		if k < len(moved) && moved[k] == i {
			mv = append(mv, h)
			k++
			continue
		}
		hs[n] = h
		n++
	}
	slices.SortFunc(mv, order)
	// Merge from the back, where hs has room for mv.
	for o, j := len(hs)-1, len(mv)-1; j >= 0; o-- {
		if n > 0 && order(hs[n-1], mv[j]) > 0 {
			hs[o] = hs[n-1]
			n--
		} else {
			hs[o] = mv[j]
			j--
		}
	}
}

// name returns the name of tool id of st.
func (st *state) name(id int) string { return st.snap.Name(id) }

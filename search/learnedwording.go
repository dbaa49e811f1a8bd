package search

import "github.com/toolsearch/toolsearch/fallback"

// The learned wording: in a keyword answer, a tool with a learned query
// worded nearly as the request is scored as if that query were its own
// text.
//
// In the default and semantic modes a learned query's vector close to the
// request's (learnedVectorJoin) stands beside the tool's own vector
// (learnedVectors): the tool scores the better of its own cosine and the
// learned query's, so an agent's earlier request worded nearly as this
// one ranks its tool as the catalog's best match would. A keyword answer
// has no vectors, so the learned stage lifted such a tool only by its
// capped boost (learnWeight · evidence · similarity of its distance to
// 1), which one session's use halves, and the boost's similarity reads
// the tool's learned queries as one document (the learned keyword
// index), where a tool that learned many requests weighs each less. So
// "add a dentist appointment on March 3 at 10am to my calendar", learned
// by calendar__create_event from "put a dentist appointment on my
// calendar for March 3 at 9am", ranked create_event fourth, under
// siblings whose learned queries share "dentist appointment".
//
// The learned wording is the keyword counterpart of the learned vectors:
// the closeness of a candidate's closest learned query to the request
// (closestWording: the Dice coefficient of their terms, shared terms over
// the mean of their numbers of terms), when at least learnedWordingJoin
// and no other candidate's comes near it (wordedCandidate), stands beside
// the tool's own keyword score (a share of an ideal match of every
// request word, on the same [0, 1] scale) as the score the learned boost
// lifts (applyLearned). A request learned by several tools (one session
// used them all) has the same wording for each and raises none: the
// wording cannot tell them apart, and scoring one by it put git__add over
// git__commit for "commit the staged files … with the message 'fix typo
// in docs'", learned from "stage and commit my changes with the message
// fix typo". It runs only in a keyword answer (keyword mode, and the
// default mode's keyword answer when the confidence gate rejects the
// semantic one), only for a candidate the boost weighs, under every rule
// of the boost: the catalog's text found the tool, or its evidence lets
// it join (learnJoinEvidence, learnJoinSpread); the request's scope; an
// exact name still first. A tool raised so is marked
// (Learned.ByWording), and learning does not vouch for it to the
// no-match rules (learnedServes): the wording alone raised it, as the
// margin rule's lift (learnMarginShare).

// learnedWordingJoin is the least closeness (Dice coefficient of terms)
// of a tool's learned query to the request for the query to score as the
// tool's own keyword text: the lexical counterpart of learnedVectorJoin.
// Measured on the example catalog's answerable requests pooled (pool.sh,
// keyword mode; ratio of learning's nDCG@10 gain to the naive
// stand-in's, even / odd; without the rule .32 / 1.09): 0.6 .43 / 1.09;
// 0.5 and 0.55 .43 / 1.02; 0.65 and 0.7 .40 / 1.09. Without
// learnedWordingShare (every candidate at or above it raised): 0.6 .39 /
// 1.03, 0.67 .30 / 1.03, 0.75 .32 / 1.09 (docs/benchmarks.md, "The
// learned wording").
const learnedWordingJoin = 0.6

// closestWording returns the Dice coefficient of the terms of tool i's
// learned query closest to the request and of the request's (nTerms
// terms, termIDs the set of those some learned query has:
// learnedTerms.requestOf).
func (ix *learnedIndex) closestWording(i, nTerms int, termIDs termSet) float64 {
	best := 0.0
	rec := ix.terms.tool(i)
	for len(rec) > 0 {
		_, ids, rest := nextQuery(rec)
		rec = rest
		if n := len(ids) + nTerms; n > 0 {
			best = max(best, 2*float64(termIDs.shared(ids))/float64(n))
		}
	}
	return best
}

// wordedCandidate returns the position in cands (the learned keyword
// hits) of the candidate whose closest learned query is worded nearly as
// the request (closestWording at least learnedWordingJoin), when it is the
// only one so close (every other candidate's below learnedWordingShare of
// it), and that closeness; -1 when there is none.
func (ix *learnedIndex) wordedCandidate(cands []fallback.Hit, nTerms int, termIDs termSet) (int, float64) {
	best, second, at := 0.0, 0.0, -1
	for k, c := range cands {
		d := ix.closestWording(c.ID, nTerms, termIDs)
		if d > best {
			best, second, at = d, best, k
		} else {
			second = max(second, d)
		}
	}
	if best < learnedWordingJoin || second > learnedWordingShare*best {
		return -1, 0
	}
	return at, best
}

// learnedWordingShare is the share of the closest wording above which a
// second candidate's closeness keeps the wording from scoring either
// (wordedCandidate). 0.9 and 0.99 measured the same (pool.sh, keyword:
// .43 / 1.09).
const learnedWordingShare = 0.9

package search

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/fallback"
	"github.com/toolsearch/toolsearch/query"
)

// The learned stage of ranking. With Config.Learn.Store set, the engine
// remembers each session's searches (session.go), ReportToolUse (usage.go)
// credits a tool's use
// to the queries that revealed it (learn.Attribute), in the learning scope
// of those searches (learnScope: the request's visible set and category
// filter), and the default, semantic and keyword modes lift the tools whose
// learned queries, in the request's own learning scope, resemble the
// request:
//
//	similarity  s = m · m / best, m the keyword similarity, best the
//	            largest m of the request's learned candidates (bestShare)
//	  keyword   the tool's learned queries as a field of their own: a
//	            separate BM25F index (fallback.NewIndex) with one document
//	            per tool that learned something, scored × the share of the
//	            query's words it knows (Result.WordCoverage)
//	evidence    e = W / (W + learnEvidenceHalf), W the decayed learned
//	            weight (≈ sessions that used it) of the tool's learned
//	            queries that resemble the request (localEvidence), at most
//	            the sessions behind it; imported state claimed by one
//	            session counts 0 (learn.ToolView.Evidence)
//	boost       b = w · e · s, w = learnWeight, or learnStrongWeight
//	            with W ≥ learnStrongEvidence (boostWeight) or for the
//	            request's best learned match by a margin when not first
//	            (learnMarginShare, marginLift)
//	score'      score + b · (1 − score)
//
// So learning lifts a tool by at most learnWeight of its distance to 1
// (learnStrongWeight with the resembling evidence of several sessions),
// and only as far as the evidence and the resemblance go; the candidates
// are the tools the catalog's own text found (the fusionDepth best of each
// path; when the confidence gate rejects the semantic ones and keyword
// search answers, those too: matches.rejectedHas; the gate passes a
// search with a learned query close to the request, learnedGatePasses),
// and a tool that is
// not among them joins only with the evidence of several
// sessions (learnJoinEvidence: two sessions' full uses; or
// learnJoinSpread: three sessions' resembling queries weighing more than
// one session can give); it never adds a tool outside the request's
// scope and filters (plan.allow), and a query
// that is exactly a tool's name still ranks that tool first (exactFirst
// runs after). With Config.Learn.Store nil none of this runs: the results
// are those of an engine without learning, bit for bit.
//
// Before fusion, in the default and semantic modes, the learned queries'
// own vectors also stand beside the tool's (learnedVectors): a tool scores
// the better of its own cosine and its closest learned query's, when that
// one is above learnedVectorJoin, under the same rules (scope; joining
// only with learnJoinEvidence or learnJoinSpread unless the catalog's
// text found the tool; provenance "learned_vectors").
//
// The learned queries stay a field of their own, scored apart from the
// catalog's text and entering after fusion as the capped boost above, not
// a field of the main keyword index: a learned field in the catalog's
// BM25F scoring, with its own weight, was measured three times (issue 25;
// docs/benchmarks.md, "Against the naive stand-in") — inside the index
// (its words in the catalog's idf), out of idf (pseudo frequencies added
// per scope), and as the learned index's score added to the keyword
// path's before fusion (weighted by evidence, with and without the boost)
// — and behaves as the naive stand-in does: the more it weighs, the more
// it gains on livemcpbench and the more it costs stabletoolbench (−0.007
// to −0.033 nDCG@10 in the last one's settings), while bfcl gains less
// than with the boost. The boost's own similarity, evidence and credit
// were varied 13 ways against livemcpbench's even half (docs/benchmarks.md,
// "Sixth round"): none was kept; reading a tool's similarity as its share
// of the request's best learned match (bestShare) was (tenth session).
// That half's remaining gap is mostly requests whose write_file learned
// from two sessions' quarter uses, which the join rules keep out as they
// must.
//
// A search reads one learned index, chosen as it begins (beginLearned),
// and runs the stage's lexical half (learnedWords) and, when the query's
// vector is cached, its vector screen (learnedSights) beside the
// catalog's own candidates where a second core may be free. The learned index is
// built in the background (learner.go). Learned state is keyed by tool
// name, never by index: a tool whose content changes keeps it, a deleted
// tool's is dropped (learner.rebuild).

// learnWeight bounds the learned boost: a tool whose learned queries match
// the request perfectly, with ample evidence, moves 60 % of the way from
// its score to 1. Measured on the dev sets' replay (docs/benchmarks.md,
// "Learning from use"; nDCG@10 gain learning on even/odd ids, bfcl ·
// livemcpbench · stabletoolbench). Before miss credit and local evidence
// (issue 25): 0.45 gave +0.047/+0.054 · +0.006/+0.010 · +0.001/+0.004;
// 0.35 gave +0.042/+0.047 · +0.008/+0.008 · −0.002/+0.006; 0.6 (floor
// 0.8) gave +0.053/+0.065 · +0.007/+0.011 · −0.007/−0.004: learned
// neighbours crowded out the right tools of stabletoolbench's multi-tool
// requests. With them (evidence counts only learned queries resembling the
// request): 0.45 gave +0.058/+0.071 · +0.014/+0.029 · +0.004/+0.005; 0.6
// +0.065/+0.080 · +0.012/+0.035 · +0.002/+0.001; 0.65 +0.065/+0.080 ·
// +0.013/+0.035 · +0.003/−0.001; 0.75 +0.067/+0.083 · +0.011/+0.035 ·
// +0.002/−0.003.
const learnWeight = 0.6

// learnStrongEvidence is the resembling learned weight (localEvidence, ≈
// sessions whose requests resemble this one) from which a learned lift
// weighs learnStrongWeight instead of learnWeight: a tool that several
// sessions used after requests like this one has earned a lift the
// catalog's text cannot outweigh, while the one- and two-session lifts
// that crowd out the right tools of stabletoolbench's multi-tool requests
// keep learnWeight. It serves the sets where many requests share a tool
// (issue 25: there the naive stand-in gains most and learning least).
// Measured on the replay (ratio of learning's nDCG@10 gain to the naive
// stand-in's, bfcl · livemcpbench even/odd; stabletoolbench gain), with
// learnStrongWeight 0.9: without it (learnWeight alone) .73/.94 ·
// .38/.54 · +.002/+.001; from 3 .76/.95 · .38/.54 · +.005/+.002; from 2
// .78/.95 · .38/.54 · +.004/+.000; from 3 with 1.0 .75/.96 · .38/.54 ·
// +.005/+.001. Keyword mode, from 3: bfcl +.042/+.045 → +.051/+.059 of
// nDCG@10, livemcpbench and stabletoolbench unchanged. A single
// learnWeight of 0.75 instead cost stabletoolbench's odd half −.003 (and
// 0.9, with resemblance weighted by idf, −.006). Sybils (at most two
// sessions) never reach it.
const learnStrongEvidence = 3.0

// learnStrongWeight bounds the learned boost of a tool with
// learnStrongEvidence: see there.
const learnStrongWeight = 0.9

// boostWeight is the weight of a learned lift backed by learned weight w
// resembling the request: learnStrongWeight from learnStrongEvidence on,
// else learnWeight. It never decreases as w grows.
func boostWeight(w float64) float64 {
	if w >= learnStrongEvidence {
		return learnStrongWeight
	}
	return learnWeight
}

// learnMarginShare is how far ahead of the tools it would pass the
// request's best learned match must be for its lift to weigh
// learnStrongWeight whatever its evidence (marginLift): the similarity
// (the learned keyword score × word coverage, before bestShare) of every
// learned candidate ranked above it at most this share of the best's,
// and every other candidate's at most learnMarginAll of it (before the
// fifteenth session, every other candidate's at most this share). Where
// many requests share a tool (issue 25), the tool whose learned queries
// alone say the request was lifted by one session's learnWeight · 0.5 ·
// s, short of the catalog's best or of a sibling with the strong weight
// of three sessions of looser matches ("Could you put a thumbs-up on
// Marco's message in #general?": slack__add_reaction, learned from
// "react with a thumbs up emoji to that slack message", similarity .46,
// under slack__send_message at .06). One session still adds at most weight 1, so evidence, the
// join rules and learnStrongEvidence are unchanged; only the weight of a
// lift it already had grows, for one tool per search. Learning does not
// vouch for a tool lifted so (Learned.ByMargin, learnedServes): the
// similarity alone raised it, and near misses whose learned sibling says
// the verb ("delete the file /tmp/old-build.zip" and notes__delete_note,
// learned from "delete the note called old ideas") were let through when
// it did. Measured (docs/benchmarks.md, "The best learned match by a
// margin"): the example pool's ratio of learning's nDCG@10 gain to the
// naive stand-in's, even / odd, .42 / .98 → .50 / .97 (keyword .21 / .86
// → .33 / 1.04); its no-answer requests flagged with learning 760 / 761
// → 762 / 763 of 860 (keyword 760 / 759 → 761 / 759), answerable flagged
// 5.3 → 5.7 % on the even half (one request), the rest unchanged; the dev
// replays and stabletoolbench's 4-fold replay as before but bfcl (docs).
// Without the vouching exception the same lift let 2–7 more of those
// no-answer requests through. A share of 0.9 / 0.85 / 0.75 / 0.7 / 0.6
// (without it, on main at 00f8f47) gave .52 / .89, .52 / .97, .45 / .97,
// .45 / .97, .46 / .95 against 0.8's .50 / .97.
const learnMarginShare = 0.8

// learnMarginAll is how far ahead of every other learned candidate the
// request's best learned match must be for marginLift to weigh: their
// similarity at most this share of the best's, where the tools the lift
// would pass must be at most learnMarginShare of it. A candidate ranked
// below the best match is not passed, so its claim only has to leave the
// best a lead: where the best's learned queries share the request's
// values with a sibling's that ranks below it ("what's going on with
// golang/go#61200?": github__get_issue learned from "What does issue
// 4521 in golang/go say?", similarity .605, github__search_issues from
// "… memory leaks in golang/go on GitHub?", .526, third), the sibling
// held back a lift that passed only github__search_code, which has no
// learned claim. Ties and near ties (a multi-tool session's query
// learned by each of its tools: stabletoolbench) still hold it back.
// Measured (docs/benchmarks.md, "The margin over what the lift passes"),
// on main at af1ba49, every other candidate at most learnMarginShare of
// the best → this rule: the example pool's ratio of learning's nDCG@10
// gain to the naive stand-in's, even / odd, .67 / .96 → .72 / .96
// (keyword .32 / 1.09 → .31 / 1.09, one request); its no-answer requests
// flagged with learning the same (845 / 840 of 960); the dev replays the
// same or higher (stabletoolbench's 4-fold fold 0 +.0179 → +.0188,
// keyword +.0123 → +.0135). Without learnMarginAll (the tools passed
// alone): pool .72 / .96, but stabletoolbench +.0080 / +.0027 → +.0037 /
// +.0016 (keyword +.0093 / +.0060 → +.0044 / +.0036); learnMarginAll
// 0.95: stabletoolbench's even half +.0074.
const learnMarginAll = 0.9

// learnedClaim is a learned candidate's claim on a request: its catalog
// ID and learned similarity (the learned keyword score × word coverage,
// before bestShare and the siblings' demotion).
type learnedClaim struct {
	id  int
	sim float64
}

// marginLift lifts the hit of tool id in hits (sorted, learned lifts
// applied), the request's best learned match, from before, the score
// its learned lift started from (its score before learning, or its
// learned wording's: learnedwording.go), by b, its lift at
// learnStrongWeight, when it is best by a margin over the tools it would
// pass: every hit ranked above it whose learned claim (claims; a tool
// without one has none) is above bar (learnMarginShare of the best's)
// keeps it where it is, and so does being first already: a lift by the
// margin reorders, and does not raise the confidence of a first that
// needs none. A learned candidate ranked below it, however close its
// claim, is not passed, so it does not hold the lift back
// (learnMarginAll). The lift is marked (Learned.ByMargin), what it adds
// added to the hit's learned boost, and hits re-sorted.
func marginLift(hits []hit, id int, before, b, bar float64, claims []learnedClaim, debug bool, name func(int) string) {
	r := slices.IndexFunc(hits, func(h hit) bool { return h.id == id })
	if r <= 0 {
		return
	}
	for _, a := range hits[:r] {
		for _, c := range claims {
			if c.id == a.id && c.sim > bar {
				return
			}
		}
	}
	h := &hits[r]
	s := before + b*(1-before)
	if s <= h.score {
		return
	}
	h.learned.Boost, h.learned.ByMargin = h.learned.Boost+s-h.score, true
	h.score = s
	if debug {
		h.explain += fmt.Sprintf("; the best learned match by a margin: × %.2f → %.3f", learnStrongWeight, s)
	}
	resortHits(hits, []int{r}, name)
}

// learnEvidenceHalf is the learned weight at which evidence counts half:
// one session's successful use (weight 1) gives e = 0.5, three give 0.75.
// One session can add at most weight 1 to a tool (learn.Store.Record), so
// alone it never gets past e = 0.5, a lift of at most learnWeight · 0.5 =
// 0.3 of the distance to 1. With miss credit and evidence that resembles
// the request (issue 25), 0.5 measured worse than 1 (replay gain as a share
// of the naive stand-in's, bfcl 0.69/0.96 against 0.73/0.94, livemcpbench
// 0.29/0.60 against 0.38/0.54, stabletoolbench +0.001/−0.005 against
// +0.002/+0.001). After bestShare (eleventh session, docs/benchmarks.md
// "One session's lift"), 0.75 raised the pool's ratio .51 → .53 and
// livemcpbench's .82 / .85 → 1.01 / .96, but took stabletoolbench's 4-fold
// replay past −0.005 on single folds (default −.0041 → −.0110, keyword
// −.0052 → −.0102 and −.0091) and let 3 more of the pool's no-answer
// requests through with learning: not kept.
const learnEvidenceHalf = 1.0

// learnJoinEvidence is the learned weight a tool needs to join a result
// that the catalog's own text did not put among the candidates (the
// fusionDepth best of each path). Below it, learning only reorders
// candidates. One session adds at most weight 1, so no single session —
// however many uses it reports, for whatever queries — can put a tool into
// results for a query its text does not match (the poisoning test,
// server/learned_test.go); two sessions that used it can.
//
// Evidence is decayed weight (learn.DefaultHalfLife), so two sessions' uses
// sum to a little under 2 a moment after they were recorded. The rule
// therefore takes two sessions' uses within about a week of now
// (2 · 2^(−6/30) ≈ 1.74): canJoin compares against learnJoinEvidence less
// learnJoinSlack, which stays above the most one session can give (1).
const learnJoinEvidence = 2.0

// learnJoinSlack is how far below learnJoinEvidence decayed evidence may be
// and still let a tool join: 0.25 (two uses up to ~6 days old), well above
// one session's maximum of 1.
const learnJoinSlack = 0.25

// canJoin reports whether learned evidence lets a tool join a result the
// catalog's text did not put among the candidates.
func canJoin(evidence float64) bool { return evidence >= learnJoinEvidence-learnJoinSlack }

// learnJoinSpread is the other way a tool joins a result the catalog's
// text did not put among the candidates: at least this many sessions used
// it, at least this many of its learned queries resemble the request fully
// (counted by localEvidence), and their weight is more than one session can
// give (1). It counts sessions where canJoin counts weight: a session's
// credit is shared among the tools its search led to (1/√(k+1)) and
// halved for a miss, so a tool that many sessions used last, after the
// tools their requests named first (the write_file that ends "… and save
// the report to /root/markdown/….md"), gathers a quarter of a use per
// session and needs seven sessions to reach learnJoinEvidence, where two
// sessions' full uses reach it. One session still cannot make a tool join
// (its weight is at most 1: the poisoning test), nor can two sybil
// sessions (TestLearnMissSybils: two sessions, and their misses weigh ½
// each at most). Measured on the replay (ratio of learning's nDCG@10
// gain to the naive stand-in's, default mode): livemcpbench's odd half
// 0.58 → 0.79 (one request, +0.61 nDCG@10, whose filesystem__write_file
// had 5 resembling learned queries weighing 1.39); in keyword mode bfcl's
// live subset's odd half 0.95 → 0.97; its even half, bfcl, bfcl's
// multi_turn subset, stabletoolbench and the other keyword-mode replays
// unchanged; 2 instead of 3 measured the same. The k-fold replays (more
// sessions per tool) are unchanged: there such tools gather
// learnJoinEvidence anyway. The strong weight for a lift meeting the
// same rule (learnStrongWeight below learnStrongEvidence) gained more
// (livemcpbench 0.64 / 0.79, k-fold 0.69) but took stabletoolbench's
// k-fold keyword replay to −0.0059 nDCG@10.
const learnJoinSpread = 3

// canJoinSpread reports whether learned tool i may join a result the
// catalog's text did not put among the candidates by learnJoinSpread,
// given its resembling evidence local: count returns how many of its
// learned queries resemble the request fully, and is called only when
// the cheaper conditions hold.
func (ix *learnedIndex) canJoinSpread(i int, local float64, count func() int) bool {
	return local > 1 && i < len(ix.sessions) && ix.sessions[i] >= learnJoinSpread && count() >= learnJoinSpread
}

// The centroid signal — the cosine between the request's vector and the
// weighted mean of a tool's learned queries' vectors, above a floor of
// 0.85, rescaled to [0, 1] and taken where above the keyword's
// similarity — was dropped in the thirteenth session (h39-lat): the
// learned vectors (learnedVectors) and the vector resemblance of
// localEvidence say what it said, per learned query, and without it the
// replays are the same or better while a search with learning is ≈ 12 µs
// faster at the p50 (4–17 µs over seven runs, BenchmarkLearnedSearch's
// learned engine under load; its screen of every centroid read ≈ 120 KB a
// search, and the tools it alone found were weighed by the lift).
// Replays (ratio of learning's nDCG@10 gain to the naive stand-in's, bfcl
// · livemcpbench even/odd; stabletoolbench gain), with → without it:
// default .86/.98 · .82/.84 · +.0080/+.0029 → the same but
// stabletoolbench's odd half +.0027; keyword mode unchanged (it has no
// request vector); stabletoolbench 4-fold (default)
// +.0179/+.0152/−.0003/−.0041 → +.0179/+.0186/−.0001/−.0041; the pool's
// replay (pool.sh) the same to the digit (docs/benchmarks.md, "Latency
// with ~1,000 learned tools").

// learnMinBoost is the smallest boost applied; smaller ones are noise and
// would only clutter provenance.
const learnMinBoost = 0.005

// Learned is the provenance of a learned boost on one result.
type Learned struct {
	// Signal is the learned signal that lifted the tool: "learned_queries"
	// (its learned queries matched the request's words) or
	// "learned_vectors" (one of its learned queries' vectors is close to
	// the request's, learnedVectors).
	Signal string
	// Boost is the score added by learning, before calibration.
	Boost float64
	// Similarity is the signal's similarity in [0, 1] as the boost read
	// it (its share of the request's best learned similarity applied:
	// bestShare), and Evidence the tool's learned weight (≈ sessions
	// that used it, decayed).
	Similarity, Evidence float64
	// ByMargin reports that the lift weighed learnStrongWeight as the
	// request's best learned match by a margin (marginLift), where its
	// evidence alone gives learnWeight; learning then does not vouch for
	// the tool to the no-match rules (learnedServes).
	ByMargin bool
	// ByWording reports that the lift started from the closeness of a
	// learned query worded nearly as the request (wordedCandidate,
	// learnedwording.go), above the tool's own keyword score; learning
	// then does not vouch for the tool to the no-match rules
	// (learnedServes).
	ByWording bool
}

// The signals of Learned.
const (
	SignalLearnedQueries = "learned_queries"
	SignalLearnedVectors = "learned_vectors"
	// SignalLearnedCentroid is no longer given: the centroid signal was
	// dropped (thirteenth session). Kept for callers that compare with it.
	SignalLearnedCentroid = "learned_centroid"
)

// learnedStage is one search's learned stage (plan.learned): the learned
// index of the request's learning scope, read once, and the stage's
// lexical half (learnedWords), which needs only the request's words and
// so may run on a goroutine of its own while the catalog's own candidates
// are found. A search that begins one (beginLearned) ends it before it
// returns (end).
type learnedStage struct {
	ix *learnedIndex
	// text is the request's ranking text (query.Query.RankingText).
	text string
	// done is closed once the goroutine has set words; nil when the
	// lexical half runs on the search's goroutine, at its first use.
	done  chan struct{}
	words learnedWords
	// have: words is set (without a goroutine).
	have bool
	// joined: the search has waited for the goroutine (join); l is the
	// learner that counts the searches it kept waiting.
	joined bool
	l      *learner
	// screened holds the learned vectors learnedVectors' screen let
	// through for the request (vectorsAbove), when it ran: localEvidence
	// reads them instead of screening each tool's vectors again
	// (rowsAbove).
	screened *screenedRows
	// sights is the stage's vector half, computed with its lexical half
	// on the goroutine when the request's vector was in the query cache
	// as the search began; nil otherwise.
	sights *learnedSights
	// raw is the request's vector as vectorCandidates read it from the
	// query cache, or put it there, for text (nil until it has): the
	// stage reads it there instead of asking the cache again
	// (queryVector).
	raw []float32
	// gated: the semantic gate passed the search on its learned vectors
	// (learnedGatePasses).
	gated bool
	// agreedOf is 1 + the tool learnedAgrees last answered agreed for
	// (0: none yet).
	agreedOf int
	agreed   bool
	// verbIDs are the term IDs of the request's action verb and its
	// synonyms in ix's numbering (requestVerb), read once verbRead:
	// agrees asks them of every tool it weighs; verbNone: the request
	// has no action verb.
	verbIDs            []int32
	verbRead, verbNone bool
	// late: the goroutine began aheadLateStart or more after it was
	// started (goAhead); set by it, read once done is closed.
	late bool
	// panicked is what the goroutine panicked with (nil if it did not),
	// set before done is closed; join and end panic with it again on the
	// search's goroutine (rethrow).
	panicked any
}

// goAhead runs f on a goroutine of its own and closes ls.done when f
// returns. A panic in f does not end the process: it is kept and raised
// again on the search's goroutine when the search waits for f (join,
// end), where it would have been raised had f run in line — so the
// server's recovery (server/interceptor.go) answers that one call with an
// error and the sidecar keeps serving. The goroutine notes whether it
// began late (aheadLateStart).
func (ls *learnedStage) goAhead(f func()) {
	ls.done = make(chan struct{})
	started := time.Now()
	go func() {
		defer close(ls.done)
		defer func() { ls.panicked = recover() }()
		ls.late = time.Since(started) >= aheadLateStart
		f()
	}()
}

// rethrow panics with what the stage's goroutine panicked with, once.
func (ls *learnedStage) rethrow() {
	if p := ls.panicked; p != nil {
		ls.panicked = nil
		panic(p)
	}
}

// learnedSights are the learned stage's screen of the learned vectors,
// and the centred query vector localEvidence reads, for one query vector
// (raw, the query cache's own slice), computed with the stage's lexical
// half (beginLearned) as learnedVectors and applyLearned would compute
// them; each reads them only for the same vector, bit for bit (else it
// computes its own). On
// BenchmarkLearnedSearch the learned vectors' screen is ≈ 12–20 µs of a
// search's CPU.
type learnedSights struct {
	raw []float32
	// semantic is project(raw, pc) as vectorCandidates computes it, q
	// its unit vector and rows the learned vectors vectorsAbove lets
	// through for q (learnedVectors); nil where learnedVectors would not
	// screen.
	semantic, q []float32
	rows        *screenedRows
	// pv is the query's unit vector without the common component, as
	// applyLearned computes it for localEvidence (centredQuery).
	pv []float32
}

// screenedRows are the learned vectors a screen let through for one
// query (learnedScreen.vectorsAbove), by tool: tools in ascending order,
// tool tools[j]'s vectors (by index in learnedIndex.vecs[i]) at
// rows[end[j-1]:end[j]]. It holds every vector whose exact cosine with
// the query (dot32) reaches learnedVectorJoin, and with any vector within
// a small fraction of screenMargin of the query too: the unit vectors
// learnedVectors and applyLearned compute from the same query vector (pv
// in localEvidence) differ in their last bits only.
type screenedRows struct {
	tools, end, rows []int32
	// The first few tools and rows live in the struct (newScreenedRows):
	// a screen lets ≈ 2–3 vectors through on BenchmarkLearnedSearch, and
	// the three slices grown by append from nothing were ≈ 7 of the ≈ 18
	// allocations a search with learning adds.
	toolsBuf, endBuf [screenedInline]int32
	rowsBuf          [2 * screenedInline]int32
}

// screenedInline is how many tools' screened vectors a screenedRows
// holds without allocating beyond itself (twice as many vectors).
const screenedInline = 8

// newScreenedRows returns an empty screenedRows whose slices start in its
// own arrays.
func newScreenedRows() *screenedRows {
	sr := &screenedRows{}
	sr.tools, sr.end, sr.rows = sr.toolsBuf[:0], sr.endBuf[:0], sr.rowsBuf[:0]
	return sr
}

// add records tool i's screened vectors ks; tools are added in ascending
// order.
func (sr *screenedRows) add(i int, ks []int) {
	sr.tools = append(sr.tools, int32(i))
	for _, k := range ks {
		sr.rows = append(sr.rows, int32(k))
	}
	sr.end = append(sr.end, int32(len(sr.rows)))
}

// rowsAt returns the screened vectors of the j-th tool of sr.tools.
func (sr *screenedRows) rowsAt(j int) []int32 {
	start := int32(0)
	if j > 0 {
		start = sr.end[j-1]
	}
	return sr.rows[start:sr.end[j]]
}

// of returns tool i's screened vectors (none when the screen let none of
// them through).
func (sr *screenedRows) of(i int) []int32 {
	j, ok := slices.BinarySearch(sr.tools, int32(i))
	if !ok {
		return nil
	}
	return sr.rowsAt(j)
}

// learnedWords is the lexical half of the learned stage (applyLearned):
// the learned keyword search, a separate BM25F index over the learned
// queries read learnedKeywordDepth deep, and the request's terms in the index's
// numbering (learnedTerms.requestOf). On BenchmarkLearnedSearch (~1,200
// learned tools) it is about half of the learned stage's time (≈ 40 µs of
// a search's CPU), and it depends on nothing the catalog's candidates
// give, so with more than one P it runs beside them (beginLearned): the
// search's latency then pays for it only where a core is busy; its CPU
// time is the same, and the results bit for bit those of running it in
// line (TestLearnedAheadIsInline).
type learnedWords struct {
	// hits are the learned keyword search's hits, unordered, and
	// coverage its word coverage (fallback.Result.WordCoverage).
	hits     []fallback.Hit
	coverage float64
	// termIDs and nTerms are the request's terms (requestOf).
	termIDs termSet
	nTerms  int
}

// beginLearned returns p's learned stage, or nil when there is none to
// apply: without learning, or with nothing learned in p's learning
// scope. With ahead, a request with ranking words and more than one P,
// the stage's lexical half, then its vector screen if the request's
// vector is in the query cache, start on a goroutine: the caller must end
// the stage before it returns. The goroutine only computes (no I/O, no
// waiting, ≈ 55 µs): a cancelled request ends it by waiting for it, as
// long as running it in line would take.
func (e *Engine) beginLearned(st *state, p *plan, ahead bool) *learnedStage {
	if e.learner == nil {
		return nil
	}
	ixs := e.learner.index.Load()
	if ixs == nil {
		return nil
	}
	if ixs.snapVersion != st.snap.Version() || (!ixs.embedded && st.sem != nil && len(ixs.byScope) > 0) {
		e.learner.nudge() // the catalog or the embedder changed since the index was built
	}
	ix := ixs.byScope[p.learnScope]
	if ix == nil || len(ix.names) == 0 {
		return nil
	}
	ls := &learnedStage{ix: ix, text: p.query.RankingText(), l: e.learner}
	if ahead && ls.text != "" && e.learner.runsAhead() {
		q := p.query
		ls.goAhead(func() {
			ls.words = ix.wordsOf(q, ls.text)
			ls.sights = e.learnedSightsOf(st, ix, ls.text)
		})
	}
	return ls
}

// aheadBackoff is how many searches run the learned stage in line after
// one found the stage's goroutine unfinished when it needed its work, or
// found that it began late (aheadLateStart). The
// goroutine (≈ 55 µs) is done long before the candidates (≈ 150 µs) when
// a core is free for it; when it is not, the search waits for it, and
// running it in line costs less. On BenchmarkLearnedSearch at load
// average ≈ 7 on 2 cores, the goroutine on every search gave p50 on/off
// 1.65× against 1.55× in line (five interleaved runs each); at load ≈ 10,
// with the paired benchmark, 8 gave 1.68–1.74× and 1 gave 1.77–1.82×
// against 1.56–1.64× with 64 (four runs each): a search that starts the
// goroutine on a busy machine pays for it even when the goroutine is done
// by the time its work is needed. One search in aheadBackoff + 1 tries
// again, so a core that frees up is used again within that many searches.
const aheadBackoff = 64

// aheadLateStart is how long after it was started the stage's goroutine
// may begin and still be taken for one that had a core of its own: a
// search whose goroutine began later backs off (aheadBackoff) even when
// the goroutine finished before its work was needed. A core is not
// free then, and the goroutine shares one with the search: on
// BenchmarkLearnedSearch's learned engine at load average 7–10 on 2
// cores (h38-lat), the goroutines began 73–100 µs after they were
// started (10th to 90th percentile; a bare goroutine in a program that
// does nothing else: 70–90 µs), nearly all finished in time, and the
// searches that ran one took 80–100 µs longer at the median than those
// that ran the stage in line (and those in line ≈ 20 µs longer than
// under the rule below, the ahead ones slowing the searches after
// them): backing off on a late start too ran 1.5 % of the searches
// ahead instead of 11–17 %, and lowered the p50 by 22, 31 and 28 µs (one
// engine, blocks of 32 searches alternated between the two rules), and
// by 18, 8, 21 and 19 µs with the rules' order swapped and blocks of 256
// or 32 (two settings that are the same differ by 2–8 µs there). A
// goroutine that begins within it had a core at hand. The delay is the
// Go scheduler's (an idle P's thread woken), not the goroutine's work.
const aheadLateStart = 25 * time.Microsecond

// runsAhead reports whether a search's learned stage starts its
// goroutine: with more than one P, unless a recent search found it
// unfinished or begun late (aheadBackoff, aheadLateStart).
func (l *learner) runsAhead() bool {
	if l.serial || runtime.GOMAXPROCS(0) < 2 {
		return false
	}
	if l.inline.Load() > 0 {
		l.inline.Add(-1)
		return false
	}
	return true
}

// join waits for the stage's goroutine the first time the search needs
// its work, and raises its panic (rethrow); if it is not done yet, or
// began late (aheadLateStart), the next aheadBackoff searches run the
// stage in line.
func (ls *learnedStage) join() {
	if ls.done == nil || ls.joined {
		return
	}
	ls.joined = true
	select {
	case <-ls.done:
		if ls.late {
			ls.l.inline.Store(aheadBackoff)
		}
	default:
		ls.l.inline.Store(aheadBackoff)
		<-ls.done
	}
	ls.rethrow()
}

// lexical returns the stage's lexical half for q (p.query), waiting for
// its goroutine, or computing it now.
func (ls *learnedStage) lexical(q query.Query) *learnedWords {
	if ls.done != nil {
		ls.join()
	} else if !ls.have {
		ls.words, ls.have = ls.ix.wordsOf(q, ls.text), true
	}
	return &ls.words
}

// sighted returns the stage's vector half computed ahead (nil if it was
// not), waiting for the goroutine.
func (ls *learnedStage) sighted() *learnedSights {
	if ls.done == nil {
		return nil
	}
	ls.join()
	return ls.sights
}

// queryVector returns the request's vector from the query cache c, as
// c.get(ls.text) would: the one vectorCandidates read or put there during
// this search, without a second lookup (a lock and the hash of the whole
// text), else c's.
func (ls *learnedStage) queryVector(c *queryCache) ([]float32, bool) {
	if ls.raw != nil {
		return ls.raw, true
	}
	return c.get(ls.text)
}

// end waits for the stage's goroutine, if it started one, and raises its
// panic if the search never joined it; a nil stage has none. It hands the
// lexical half's buffers back (releaseWords): the stage is over.
func (ls *learnedStage) end() {
	if ls == nil {
		return
	}
	if ls.done != nil {
		<-ls.done
		defer ls.rethrow()
	}
	ls.ix.releaseWords(&ls.words)
}

// releaseWords hands back the buffers of w (wordsOf), which nothing reads
// any longer, and clears them from w.
func (ix *learnedIndex) releaseWords(w *learnedWords) {
	if w.termIDs != nil {
		ix.terms.release(w.termIDs)
		w.termIDs = nil
	}
	if w.hits != nil {
		b := w.hits[:0]
		ix.hitBufs.Put(&b)
		w.hits = nil
	}
}

// learnedKeywordDepth is how many of the learned keyword search's best
// tools the lift weighs (wordsOf).
// 30 instead of fusionDepth (50), replays
// against main (h38-lat; ratio of learning's nDCG@10 gain to the naive
// stand-in's, bfcl · livemcpbench even/odd; stabletoolbench gain): default
// .86/.98 · .82/.84 · +.0080/+.0029, the same to the digit; keyword
// .86/.97 → .87/.97 · .32/.90 · +.0093/+.0060; stabletoolbench's 4-fold
// gains default +.0178/+.0152/−.0005/−.0041 → +.0179/+.0152/−.0003/−.0041,
// keyword +.0122/+.0120/−.0046/−.0052 → +.0123/+.0120/−.0042/−.0052; the
// pool's replay (pool.sh) the same in both modes. It lowered the p50 of
// BenchmarkLearnedSearch's learned engine by 3–8 µs (four runs, blocks of
// 32 searches alternated with 50; the same setting twice: 1 µs): the lift
// weighs fewer tools (localEvidence) and the top is smaller. 20 saved
// ≈ 8 µs but took stabletoolbench's keyword fold 2 to −.0093.
const learnedKeywordDepth = 30

// wordsOf computes the learned stage's lexical half for q, text its
// ranking text (learnedWords).
func (ix *learnedIndex) wordsOf(q query.Query, text string) learnedWords {
	var w learnedWords
	if rq, err := q.RankingQuery(text); err == nil {
		// applyLearned reads the hits as a set (it weighs each tool on its
		// own and re-sorts what it lifts); the stage reads WordCoverage,
		// not Coverage.
		var buf []fallback.Hit
		if b, _ := ix.hitBufs.Get().(*[]fallback.Hit); b != nil {
			buf = *b
		} else {
			buf = make([]fallback.Hit, 0, learnedKeywordDepth)
		}
		r := ix.kw.Keyword(rq, fallback.Options{Limit: learnedKeywordDepth, Unordered: true, NoCoverage: true, Hits: buf})
		w.hits, w.coverage = r.Hits, r.WordCoverage
	}
	// After the search, which has put the request's words in the
	// index's query-word cache (requestOf).
	w.termIDs, w.nTerms = ix.terms.requestOf(ix.kw, q)
	return w
}

// learnedSightsOf computes the vector half of the learned stage of a
// request with ranking text text (learnedSights) when its vector is in
// the query cache; nil otherwise.
func (e *Engine) learnedSightsOf(st *state, ix *learnedIndex, text string) *learnedSights {
	if st.sem == nil || e.queries == nil || ix.model != st.sem.embedder.ModelID() {
		return nil
	}
	raw, ok := e.queries.get(text)
	if !ok {
		return nil
	}
	a := &learnedSights{raw: raw}
	if ix.vecs != nil && samePC(ix.pc, st.sem.pc) {
		a.semantic = project(raw, st.sem.pc) // as vectorCandidates
		a.q = slices.Clone(a.semantic)
		embed.Normalize(a.q)
		a.rows = newScreenedRows()
		ix.screen.vectorsAbove(a.q, func(i int, ks []int) { a.rows.add(i, ks) })
	}
	a.pv = ix.centredQuery(st, raw)
	return a
}

// centredQuery returns the unit vector of the query vector raw, without
// the common component and made a unit vector again, for localEvidence;
// nil unless ix has learned vectors of st's common component.
func (ix *learnedIndex) centredQuery(st *state, raw []float32) []float32 {
	if ix.vecs == nil || !samePC(ix.pc, st.sem.pc) {
		return nil
	}
	qv := slices.Clone(raw) // the query cache's own
	embed.Normalize(qv)
	pv := project(qv, ix.pc) // qv itself when there is no common component
	embed.Normalize(pv)
	return pv
}

// sameSlice reports whether a and b are the same slice of memory.
func sameSlice(a, b []float32) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// sameBits reports whether a and b hold the same float32s, bit for bit.
func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// applyLearned lifts the hits of m by what the engine learned in the
// request's learning scope (see the top of this file; p.learned) and
// re-sorts them; tools in the request's scope that learned something
// close to the request join the hits. Without learning, or for fuzzy
// matches, m is returned as is.
func (e *Engine) applyLearned(st *state, p *plan, m matches) matches {
	ls := p.learned
	if ls == nil || m.mode == ModeFuzzy || ls.text == "" {
		return m
	}
	ix := ls.ix
	// The learned keyword hits (at most learnedKeywordDepth, each tool
	// once), the lift's candidates.
	words := ls.lexical(p.query)
	cands, termIDs, nTerms := words.hits, words.termIDs, words.nTerms
	var pv []float32 // the query's unit vector without the common component, for localEvidence
	if ix.vecs != nil && e.queries != nil && st.sem != nil && st.sem.embedder.ModelID() == ix.model {
		if raw, ok := ls.queryVector(e.queries); ok {
			if a := ls.sighted(); a != nil && sameSlice(a.raw, raw) {
				pv = a.pv
			} else {
				pv = ix.centredQuery(st, raw)
			}
		}
	}
	hits := m.hits
	pos := e.learner.positions.get(st.snap.Len(), hits)
	defer func() { e.learner.positions.put(pos, hits) }()
	var movedBuf [fusionDepth]int
	moved := movedBuf[:0] // the positions in hits of the hits lifted or joined
	var provBuf [fusionDepth]Learned
	prov := provBuf[:0] // their provenance, moved[k]'s prov[k]
	// The candidates' similarities: the learned keyword score × word
	// coverage (a tool at 0 gets no boost).
	var kwBuf [learnedKeywordDepth]float64
	kws := kwBuf[:0]
	best, second := 0.0, 0.0 // the two largest similarities
	for _, c := range cands {
		kw := c.Score * words.coverage
		kws = append(kws, kw)
		if kw > best {
			best, second = kw, best
		} else {
			second = max(second, kw)
		}
	}
	// A server's most similar candidate by its server's words alone
	// (learnSiblingDistinct) is demoted; best and second, the scale of
	// bestShare and the margin's, stay as they were.
	var notes []string
	if p.debug {
		notes = make([]string, len(cands))
	}
	var rawBuf [learnedKeywordDepth]float64
	raws := append(rawBuf[:0], kws...)
	ix.siblings.siblingDemote(cands, termIDs, kws, notes)
	// In a keyword answer, the candidate whose learned query is worded
	// nearly as the request, alone (learnedwording.go).
	worded, wordedClose := -1, 0.0
	if m.mode == ModeKeyword {
		worded, wordedClose = ix.wordedCandidate(cands, nTerms, termIDs)
	}
	// The best learned match by a margin (learnMarginShare), lifted at
	// less than learnStrongWeight: its catalog ID, score before learning
	// and lift at learnStrongWeight, for marginLift.
	marginID, marginBefore, marginB := -1, 0.0, 0.0
	// The learned candidates' claims (their similarity before the
	// siblings' demotion), by catalog ID: marginLift passes only the tools
	// whose claims are clearly below the best's (learnMarginShare).
	var claimBuf [learnedKeywordDepth]learnedClaim
	claims := claimBuf[:0]
	for k, c := range cands {
		i, kw := c.ID, kws[k]
		id, ok := ix.id(st, i)
		if ok && raws[k] > 0 {
			claims = append(claims, learnedClaim{id: id, sim: raws[k]})
		}
		if kw <= 0 {
			continue // a tool at 0 gets no boost
		}
		sim := bestShare(kw, best)
		// The evidence resembling the request is at most the tool's
		// (localEvidence), and the boost and canJoin grow with it: a tool
		// that would not be lifted or could not join with all of its
		// evidence is passed over before weighing its learned queries.
		all := ix.evidence[i]
		if boostWeight(all)*(all/(all+learnEvidenceHalf))*sim < learnMinBoost {
			continue
		}
		if !ok || (p.allow != nil && !p.allow(id)) {
			continue
		}
		j, in := pos.at(id)
		found := in || m.rejectedHas(id)
		if !found && !canJoin(all) && !(all > 1 && ix.sessions[i] >= learnJoinSpread) {
			continue
		}
		// A tool that is not among the hits may need its resembling
		// queries counted (canJoinSpread): in the same pass.
		local, full := ix.localEvidence(i, nTerms, termIDs, pv, ls.screened, !in && ix.sessions[i] >= learnJoinSpread)
		ev := local / (local + learnEvidenceHalf)
		w := boostWeight(local)
		b := w * ev * sim
		if b < learnMinBoost || (!found && !canJoin(local) && !ix.canJoinSpread(i, local, func() int { return full })) {
			continue
		}
		if !in {
			j = len(hits)
			hits = append(hits, hit{id: id})
			pos.set(id, j)
		}
		h := &hits[j]
		before, from, byWording := h.score, h.score, false
		if k == worded && wordedClose > before {
			from, byWording = wordedClose, true
		}
		h.score = from + b*(1-from)
		if raws[k] >= best && second <= learnMarginAll*best && w < learnStrongWeight {
			marginID, marginBefore, marginB = id, from, learnStrongWeight*ev*sim
		}
		prov = append(prov, Learned{Signal: SignalLearnedQueries, Boost: h.score - before, Similarity: sim, Evidence: local, ByWording: byWording})
		if p.debug {
			if notes != nil {
				h.explain += notes[k]
			}
			if byWording {
				h.explain += fmt.Sprintf("; a learned query worded as the request: %.3f → %.3f", before, from)
			}
			h.explain += fmt.Sprintf("; learned: %s similarity %.3f × evidence %.3f (weight %.2f of %.2f resembling the request) × %.2f = boost %.3f → %.3f",
				SignalLearnedQueries, sim, ev, local, ix.evidence[i], w, b, h.score)
		}
		moved = append(moved, j)
	}
	if len(moved) == 0 {
		return m
	}
	learned := slices.Clone(prov) // one allocation for all, as many as lifted
	for k, j := range moved {
		hits[j].learned = &learned[k]
	}
	resortHits(hits, moved, st.name) // m.hits are sorted
	if marginID >= 0 {
		marginLift(hits, marginID, marginBefore, marginB, learnMarginShare*best, claims, p.debug, st.name)
	}
	m.hits = hits
	m.total = max(m.total, len(hits))
	return m
}

// bestShare is a learned candidate's similarity m as the lift reads it:
// m times its share of best, the largest similarity among the request's
// learned candidates (m ≤ best). The tool whose learned queries resemble
// the request most keeps its similarity, and a sibling whose learned
// queries share fewer of the request's words is lifted less in
// proportion, whatever its sessions: the learned evidence (localEvidence)
// counts every learned query that resembles the request by a third of
// its words, so a tool that many sessions used after requests sharing a
// few words with this one ("create a jira task in OPS …" and
// jira__create_issue) outweighed the tool whose one learned query says
// what this request asks, and the naive stand-in, whose appended text
// scores by the words it shares, ranked the latter first. Measured
// (docs/benchmarks.md, "The best learned match sets the scale"), ratio of
// learning's nDCG@10 gain to the naive stand-in's, even / odd, before →
// m · (m / best): livemcpbench .55 / .94 → .73 / .86 (keyword .43 / .88
// → .43 / .90); the example pool .47 / .79 → .49 / .91 (keyword .20 / .50
// → .21 / .64); bfcl .85 / .98 → .85 / .98 (keyword .84 / .95 → .85 /
// .96); stabletoolbench's gain +.0066 / −.0031 → +.0080 / +.0030 (keyword
// +.0042 / −.0009 → +.0091 / +.0050). Other powers of the share: ½
// livemcpbench .73 / .94, pool .49 / .91 (keyword .18 / .58),
// stabletoolbench +.0087 / −.0001; 1.5 and 2 lower on the pool (.48 /
// .89, .46 / .88; keyword odd .57 and .45). The share scaling the
// resembling evidence too (the evidence's weight × the share) measured
// lower: pool .48 / .85 (keyword .22 / .55).
func bestShare(m, best float64) float64 {
	if best <= 0 {
		return m
	}
	return m * m / best
}

// rejectedHas reports whether the tool id is among the semantic candidates
// the gate rejected (matches.rejected; at most fusionDepth). When the
// confidence gate rejects the semantic
// candidates of a default or semantic search and keyword search answers
// in their place (ReasonLowConfidence), the learned stage may still lift
// those candidates (matches.rejected) as it lifts the candidates of a fused
// search: the catalog's own text found them, by meaning, and in a fused
// search such a tool needs no learned evidence to be lifted
// (learnedVectors: foundBy); only a tool that neither path found needs
// learnJoinEvidence or learnJoinSpread. The gate judges whether the
// catalog's vectors single out a tool, not whether the tools they found
// may be lifted by what agents used for requests like this one; before,
// a request the gate rejected could be lifted only among the tools that
// share its words, so a tool found by meaning alone ("lat/long of the
// Eiffel Tower" and maps__geocode, learned from "latitude and longitude of
// the Eiffel Tower") stayed out unless two sessions vouched for it. The
// joined tool starts at score 0 and gets its learned boost alone, as a
// tool joining a fused result does. On the example catalog's answerable
// requests pooled (503 requests over 67 tools, many sharing a tool: the
// dense reuse of issue 25's held-out set), 104 of the even half's 247
// evaluated requests are answered this way, and learning realized 39 %
// of the naive stand-in's gain on them against 66 % on the fused ones.
// Measured in docs/benchmarks.md ("Learning where many requests share a
// tool").
func (m *matches) rejectedHas(id int) bool {
	for _, h := range m.rejected {
		if h.id == id {
			return true
		}
	}
	return false
}

// learnedKeyword returns the keyword matches of a keyword-mode request
// with what was learned in its scope applied (applyLearned). The learned
// stage reorders the candidates the catalog's text found, and a tool that
// is not among them joins only with learnJoinEvidence (or
// learnJoinSpread); in the default and semantic modes the candidates are
// the fusionDepth best of each path, so with something learned in the
// scope keyword mode reads as deep, and then
// keeps the p.limit best: a tool the catalog's words rank 11th is found by
// the catalog's text as surely as one ranked 10th. (Keyword mode took only
// the p.limit best: on livemcpbench's replay learning gained +0.002/+0.001
// nDCG@10 against the naive stand-in's +0.043/+0.068, the tools that the
// stand-in lifted being ranked past the limit by the catalog's words and
// without the evidence to join.) Without learning, or with nothing learned
// in the scope (p.learned nil), it is keywordMatches(p, ruleDepth(p)):
// result keeps the p.limit best after the ranking rules.
func (e *Engine) learnedKeyword(st *state, p *plan) matches {
	if p.learned == nil || p.limit >= fusionDepth {
		return e.applyLearned(st, p, st.keywordMatches(p, ruleDepth(p)))
	}
	m := e.applyLearned(st, p, st.keywordMatches(p, fusionDepth))
	if len(m.hits) > p.limit {
		m.hits = m.hits[:p.limit]
	}
	return m
}

// learnedQuery is one learned query of a tool in a learned index: its
// ranking terms (fallback.Terms) and decayed weight.
type learnedQuery struct {
	terms  []string
	weight float64
}

// learnResemblance is the share of terms a learned query must have in
// common with the request (of the shorter one's terms: the overlap
// coefficient) to count fully toward the evidence behind a learned lift
// (localEvidence); below it, it counts in proportion. Measured on the dev
// sets' replay with miss credit (ratio of learning's nDCG@10 gain to the
// naive stand-in's, bfcl · livemcpbench even/odd; stabletoolbench gain):
// the tool's total weight (no resemblance) .65/.84 · .40/.54 ·
// +.005/+.007, but it fails TestLearnAlwaysUsedTool; the plain overlap
// (1) .58/.74 · .37/.40 · +.006/+.005; ½ .61/.81 · .39/.44 · +.006/+.007;
// ⅓ .64/.83 · .42/.45 · +.004/+.005; any shared term counting fully
// .66/.83 · .40/.54 but long requests share generic words ("report",
// "file") with everything, and the always-used tool is lifted.
const learnResemblance = 1.0 / 3

// localEvidence is tool i's learned weight that resembles the request
// (its terms, and its unit vector pv without the common component, or
// nil): the sum of its learned queries' weights, each times its
// resemblance — 1 when its vector is within learnedVectorJoin of pv, else
// the overlap coefficient of their terms over learnResemblance, at most 1
// — at most the tool's evidence. A tool's total weight would let one query it learned borrow
// the weight of every other: a tool used after every search of many
// sessions (an always-loaded read_file, credited as a miss to whatever
// was searched) learns many unrelated queries, and must not be lifted for
// one of them as though all its sessions had asked it.
//
// With count, it also returns how many of the tool's learned queries
// resemble the request fully (resemblance 1: the vector within
// learnedVectorJoin, or at least learnResemblance of the shorter one's
// terms shared), for learnJoinSpread (canJoinSpread), counted in the same
// pass over the queries; without, it returns 0 for it and stops once the
// sum reaches the tool's evidence.
//
// The request's terms are given as their number nTerms and the set
// termIDs of those in ix.terms' numbering (learnedTerms.requestOf): the
// shared terms are counted on it, and only the vectors learnedScreen
// cannot rule out are compared with pv: those of sr, the screen
// learnedVectors ran for the request, or without it (nil) those rowsAbove
// lets through (both hold every vector within learnedVectorJoin of pv).
func (ix *learnedIndex) localEvidence(i, nTerms int, termIDs termSet, pv []float32, sr *screenedRows, count bool) (float64, int) {
	// The queries whose vector is within learnedVectorJoin of pv, by
	// their index among the tool's queries.
	var nearBuf [1]uint64
	near := nearBuf[:]
	if pv != nil && i < len(ix.vecs) {
		mark := func(k int) {
			if float64(dot32(pv, ix.vecs[i][k])) >= learnedVectorJoin {
				q := ix.vecq[i][k]
				for q/64 >= len(near) {
					near = append(near, 0)
				}
				near[q/64] |= 1 << (q % 64)
			}
		}
		if sr != nil {
			for _, k := range sr.of(i) {
				mark(int(k))
			}
		} else {
			ix.screen.rowsAbove(i, pv, mark) // the others are below it
		}
	}
	ev, all, full := 0.0, ix.evidence[i], 0
	// The tool's queries, one after the other in one run of memory
	// (learnedTerms.rec): each its number of terms, weight and term IDs.
	rec := ix.terms.tool(i)
	for k := 0; len(rec) > 0; k++ {
		w, ids, rest := nextQuery(rec)
		rec = rest
		r := 0.0
		if k/64 < len(near) && near[k/64]&(1<<(k%64)) != 0 {
			r = 1
			full++
		} else if n := min(len(ids), nTerms); n > 0 {
			shared := float64(termIDs.shared(ids))
			r = min(1, shared/(learnResemblance*float64(n)))
			if shared >= learnResemblance*float64(n) {
				full++
			}
		}
		ev += w * r
		if !count && ev >= all && ix.nonNegative {
			// The terms still to add are not negative, and adding one
			// never lowers a float64 sum: the minimum is all.
			return all, 0
		}
	}
	return min(ev, all), full
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

// learnedVectorJoin is how close, in cosine (common component removed, as
// for the tools' own vectors), the query must come to one of a tool's
// learned queries for that tool's learned vectors to count in the semantic
// candidates: below it the built-in model's vectors of two different long
// requests are too alike to say the same tool serves both. Measured on the
// dev sets' replay (nDCG@10 gain learning on even/odd ids, bfcl ·
// livemcpbench · stabletoolbench; the boost alone: +0.046/+0.054 ·
// +0.006/+0.010 · +0.001/+0.004): 0.85 gave +0.046/+0.054 · +0.012/+0.010
// · +0.001/+0.004; 0.7 +0.050/+0.059 · +0.011/+0.010 · +0.000/+0.002;
// 0.6 +0.050/+0.058 · +0.008/+0.009 · (not run); 0.5 +0.054/+0.063 ·
// −0.013/+0.009 · −0.002/+0.001.
const learnedVectorJoin = 0.7

// learnedVectors puts the learned vectors beside the tools' own in the
// semantic candidates vec (the fusionDepth nearest tools by their own
// vectors, scored by cosine, best first): each tool in the request's scope
// whose learned queries include one closer to the query (qv, its unit
// vector with the common component removed) than learnedVectorJoin scores
// the better of its own cosine and that one. A tool this adds that
// neither path found by the catalog's own text (found) joins only with
// learnJoinEvidence; a tool it lifts carries its provenance. The result is
// sorted and cut to fusionDepth. Without learning, or with nothing learned
// in scope, vec is returned as is.
func (e *Engine) learnedVectors(st *state, p *plan, qv []float32, vec []hit, found func(int) bool) []hit {
	if p.learned == nil || st.sem == nil {
		return vec
	}
	ix := p.learned.ix
	if ix.vecs == nil || ix.model != st.sem.embedder.ModelID() || !samePC(ix.pc, st.sem.pc) {
		return vec
	}
	var q []float32
	var sr *screenedRows
	if a := p.learned.sighted(); a != nil && a.q != nil && sameBits(a.semantic, qv) {
		q, sr = a.q, a.rows // screened ahead
	} else {
		q = slices.Clone(qv)
		embed.Normalize(q)
		sr = newScreenedRows()
		ix.screen.vectorsAbove(q, func(i int, ks []int) { sr.add(i, ks) }) // the others' best is below learnedVectorJoin
	}
	p.learned.screened = sr
	var out []hit
	var moved []int   // the positions in out of the hits lifted or joined
	var pos positions // out's hits by catalog ID, once out is made
	defer func() {
		if pos != nil {
			e.learner.positions.put(pos, out)
		}
	}()
	for n, i32 := range sr.tools {
		i := int(i32)
		best, local, close := -1.0, 0.0, 0
		for _, k := range sr.rowsAt(n) {
			c := float64(dot32(q, ix.vecs[i][k]))
			best = max(best, c)
			if c >= learnedVectorJoin {
				local += ix.queries[i][ix.vecq[i][k]].weight
				close++
			}
		}
		local = min(local, ix.evidence[i])
		if best < learnedVectorJoin {
			continue
		}
		id, ok := ix.id(st, i)
		if !ok || (p.scope != nil && !p.scope(id)) {
			continue
		}
		if out == nil {
			out = slices.Clone(vec)
			pos = e.learner.positions.get(st.snap.Len(), out)
		}
		j, in := pos.at(id)
		if !in {
			if !found(id) && !canJoin(local) && !ix.canJoinSpread(i, local, func() int { return close }) {
				continue
			}
			j = len(out)
			out = append(out, hit{id: id, score: -1})
			pos.set(id, j)
		}
		if best > out[j].score {
			before := max(0, out[j].score)
			out[j].score = best
			out[j].learned = &Learned{Signal: SignalLearnedVectors, Boost: best - before, Similarity: clamp01(best), Evidence: local}
			if p.debug {
				out[j].explain = fmt.Sprintf("semantic: cosine %.3f with a learned query (own %.3f)", best, before)
			}
			moved = append(moved, j)
		}
	}
	if out == nil {
		return vec
	}
	resortHits(out, moved, st.name)
	return out[:min(len(out), fusionDepth)]
}

// samePC reports whether two common components are the same slice (or
// both absent).
func samePC(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0]
}

// dot32 is the dot product of two unit vectors of the same length (0 if
// not), in float32 with four partial sums: the learned vectors' scores
// (learnedVectors), computed for the vectors learnedScreen lets through.
func dot32(a, b []float32) float32 {
	if len(a) != len(b) {
		return 0
	}
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// learnedAgrees reports whether the learned queries of tool id, lifted
// by the learned stage ls, say the action of ls's request: one of them
// has the request's first action verb (actionVerb; or one of its
// synonyms, fallback.VerbSynonyms) and another of the request's terms
// ("delete the email from the bank" does not agree with email__send_email's
// "send an email to the bank", nor "delete the file old_notes.txt" with
// notes__delete_note's "delete the note called groceries"). A request
// without an action verb ("what time zone is Kenji in?") agrees with any;
// a search that the semantic gate passed on the learned vectors
// (learnedGatePasses) with none. See learnedServes (vouch.go), which asks
// it.
func (st *state) learnedAgrees(ls *learnedStage, id int) bool {
	if ls == nil {
		return true
	}
	if ls.gated {
		return false
	}
	if ls.agreedOf != id+1 { // the rules ask about the same top tool
		ls.agreedOf, ls.agreed = id+1, st.agrees(ls, id)
	}
	return ls.agreed
}

// agrees is learnedAgrees without the stage's memo (and without its gate
// case): the verb rule reads it for the best hits learning lifted
// (learnedDoes, question.go).
func (st *state) agrees(ls *learnedStage, id int) bool {
	ix := ls.ix
	i, ok := slices.BinarySearch(ix.names, st.name(id)) // sorted (learn.View.Tools)
	if !ok {
		return false
	}
	verbs, none := ls.requestVerb()
	if none {
		return true
	}
	if len(verbs) == 0 || !ls.have && !ls.joined {
		return false
	}
	req := ls.words.termIDs // the request's terms (applyLearned has read them)
	for rec := ix.terms.tool(i); len(rec) > 0; {
		_, ids, rest := nextQuery(rec)
		rec = rest
		hasVerb, hasOther := false, false
		for _, id := range ids {
			if slices.Contains(verbs, id) {
				hasVerb = true
			} else if int(id/64) < len(req) && req[id/64]&(1<<(id%64)) != 0 {
				hasOther = true
			}
		}
		if hasVerb && hasOther {
			return true
		}
	}
	return false
}

// requestVerb returns the term IDs, in the stage's learned numbering, of
// the request's first action verb (actionVerb, past the preamble words;
// "deleteEmail" says delete: the one text pipeline, fallback.Words) and
// of its synonyms (fallback.VerbSynonyms), or none when the request has
// no action verb; read once a search (agrees asks it of every tool it
// weighs). The words are read a field of the ranking text at a time up to
// the verb, not all of them: the analysis is word-local and splits at
// every space, so the fields' words in order are the text's
// (TestRequestVerbIsWords); the IDs of a verb are kept by the learned
// index (learnedTerms.verbIDs).
func (ls *learnedStage) requestVerb() (ids []int32, none bool) {
	if ls.verbRead {
		return ls.verbIDs, ls.verbNone
	}
	ls.verbRead = true
	verb := firstActionVerb(ls.text)
	if verb == "" {
		ls.verbNone = true
		return nil, true
	}
	ls.verbIDs = ls.ix.terms.verbIDs(verb)
	return ls.verbIDs, false
}

// firstActionVerb returns the base of the first action verb among the
// words of text (fallback.Words) that are not preamble words
// (fallback.PreambleWord), or "" when none is.
func firstActionVerb(text string) string {
	for f := range strings.FieldsSeq(text) {
		for _, w := range fallback.Words(f) {
			if fallback.PreambleWord(w) {
				continue
			}
			if base, action := actionVerb(w); action {
				return base
			}
		}
	}
	return ""
}

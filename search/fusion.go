package search

import "fmt"

// Fusion of semantic and keyword results (relative-score fusion). Each
// path's candidate scores are min-max scaled to [0, 1] over its own
// candidates, then combined as
//
//	fused = a·semantic + (1 − a)·keyword,  a = fusionSemanticWeight·min(1, fusionQueryWords/words)
//
// where words is the number of words in the query and a tool missing from a
// path scores 0 there. The semantic weight shrinks for long queries: the
// built-in model embeds a query as one weighted average of word vectors,
// which blurs a long, multi-request query, while keyword search matches
// each request's words on its own. For example a 6-word query fuses with
// a = 0.4, a 24-word query with a = 0.2.
//
// Measured with the built-in model on the ../shared/bench dev sets (nDCG@10
// bfcl / livemcpbench / stabletoolbench; keyword alone 0.696 / 0.338 /
// 0.749): fixed a = 0.3 gave 0.707 / 0.356 / 0.740 and a = 0.5 gave
// 0.688 / 0.364 / 0.658; length-adaptive a0 = 0.4, 12 words gave
// 0.713 / 0.363 / 0.751, with every neighbouring setting (a0 0.3–0.5, 8–16
// words) within 0.005 on bfcl and stabletoolbench. Reciprocal-rank fusion
// (k = 60) was worse on every set (0.693 / 0.354 / 0.681 at semantic weight
// 0.3), as was fusing raw cosine and keyword scores.
const (
	fusionSemanticWeight = 0.4
	fusionQueryWords     = 12
)

// fusionDepth is how many candidates each path contributes to fusion: far
// more than the 10 results a request may ask for, so that a tool ranked
// 30th by one path but 2nd by the other still surfaces.
const fusionDepth = 50

// semanticWeight is the fusion weight of the semantic path for a query of
// n words.
func semanticWeight(n int) float64 {
	if n <= fusionQueryWords {
		return fusionSemanticWeight
	}
	return fusionSemanticWeight * fusionQueryWords / float64(n)
}

// fuse combines semantic candidates (scored by cosine) and keyword hits
// (scored by keyword score) for a query of n words. The result is in no
// particular order: the caller sorts it (sortHits).
//
// The reported score keeps an absolute meaning: min-max scaling makes the
// best candidate's fused score 1 even when both paths matched weakly, so
// every fused score is multiplied by the best absolute fused score,
// a·cosine + (1 − a)·keyword. That factor is the same for every candidate,
// so the order is unchanged, and a weak best match is reported as weak.
func fuse(sem, kw []hit, n int, debug bool) []hit {
	a := semanticWeight(n)
	type both struct {
		sem, kw     float64
		inSem, inKw bool
	}
	pos := make(map[int]int, len(sem)+len(kw)) // tool index → position in out
	out := make([]hit, 0, len(sem)+len(kw))
	parts := make([]both, 0, len(sem)+len(kw))
	for _, s := range sem {
		pos[s.id] = len(out)
		out = append(out, hit{id: s.id, learned: s.learned})
		parts = append(parts, both{sem: s.score, inSem: true})
	}
	for _, h := range kw {
		if i, ok := pos[h.id]; ok {
			parts[i].kw, parts[i].inKw = h.score, true
			continue
		}
		pos[h.id] = len(out)
		out = append(out, hit{id: h.id})
		parts = append(parts, both{kw: h.score, inKw: true})
	}
	semLo, semHi := span(sem)
	kwLo, kwHi := span(kw)
	best := 0.0
	for i := range out {
		s := parts[i]
		ns, nk := 0.0, 0.0
		if s.inSem {
			ns = scale(s.sem, semLo, semHi)
		}
		if s.inKw {
			nk = scale(s.kw, kwLo, kwHi)
		}
		out[i].score = a*ns + (1-a)*nk
		best = max(best, a*clamp01(s.sem)+(1-a)*s.kw)
		if debug {
			out[i].explain = fmt.Sprintf("hybrid: %.2f×semantic %.3f (cosine %.3f) + %.2f×keyword %.3f (score %.3f)", a, ns, s.sem, 1-a, nk, s.kw)
		}
	}
	for i := range out {
		out[i].score = clamp01(out[i].score * best)
		if debug {
			out[i].explain += fmt.Sprintf(", × %.3f (best absolute match) = %.3f", best, out[i].score)
		}
	}
	return out
}

// span returns the lowest and highest score of hs.
func span(hs []hit) (lo, hi float64) {
	for i, h := range hs {
		if i == 0 || h.score < lo {
			lo = h.score
		}
		if i == 0 || h.score > hi {
			hi = h.score
		}
	}
	return lo, hi
}

// scale maps v from [lo, hi] to [0, 1]; a single-valued range maps to 1.
func scale(v, lo, hi float64) float64 {
	if hi <= lo {
		return 1
	}
	return clamp01((v - lo) / (hi - lo))
}

// clamp01 clamps x to [0, 1]; NaN becomes 0.
func clamp01(x float64) float64 {
	switch {
	case x != x || x < 0: // NaN or negative
		return 0
	case x > 1:
		return 1
	}
	return x
}

package search

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/fallback"
)

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

// scored is one candidate tool with its per-path scores.
type scored struct {
	id int
	// sem is the cosine similarity and kw the keyword score, each valid
	// when the path found the tool (inSem, inKw).
	sem, kw     float64
	inSem, inKw bool
	fused       float64
	explain     string
}

// semanticWeight is the fusion weight of the semantic path for a query of
// n words.
func semanticWeight(n int) float64 {
	if n <= fusionQueryWords {
		return fusionSemanticWeight
	}
	return fusionSemanticWeight * fusionQueryWords / float64(n)
}

// fuse combines semantic candidates (sorted by cosine) and keyword hits
// (sorted by score) for a query of n words, best first with ties broken by
// name.
//
// The reported score keeps an absolute meaning: min-max scaling makes the
// best candidate's fused score 1 even when both paths matched weakly, so
// every fused score is multiplied by the best absolute fused score,
// a·cosine + (1 − a)·keyword. That factor is the same for every candidate,
// so the order is unchanged, and a weak best match is reported as weak.
func (st *state) fuse(sem []scored, kw []fallback.Hit, n int, debug bool) []scored {
	a := semanticWeight(n)
	pos := make(map[int]int, len(sem)+len(kw)) // tool index → position in out
	out := make([]scored, 0, len(sem)+len(kw))
	for _, s := range sem {
		pos[s.id] = len(out)
		out = append(out, scored{id: s.id, sem: s.sem, inSem: true})
	}
	for _, h := range kw {
		if i, ok := pos[h.ID]; ok {
			out[i].kw, out[i].inKw = h.Score, true
			continue
		}
		pos[h.ID] = len(out)
		out = append(out, scored{id: h.ID, kw: h.Score, inKw: true})
	}
	semLo, semHi := span(len(sem), func(i int) float64 { return sem[i].sem })
	kwLo, kwHi := span(len(kw), func(i int) float64 { return kw[i].Score })
	best := 0.0
	for i := range out {
		s := &out[i]
		ns, nk := 0.0, 0.0
		if s.inSem {
			ns = scale(s.sem, semLo, semHi)
		}
		if s.inKw {
			nk = scale(s.kw, kwLo, kwHi)
		}
		s.fused = a*ns + (1-a)*nk
		best = max(best, a*clamp01(s.sem)+(1-a)*s.kw)
		if debug {
			s.explain = fmt.Sprintf("hybrid: %.2f×semantic %.3f (cosine %.3f) + %.2f×keyword %.3f (score %.3f)", a, ns, s.sem, 1-a, nk, s.kw)
		}
	}
	for i := range out {
		out[i].fused = clamp01(out[i].fused * best)
		if debug {
			out[i].explain += fmt.Sprintf(", × %.3f (best absolute match) = %.3f", best, out[i].fused)
		}
	}
	st.sortScored(out, func(s scored) float64 { return s.fused })
	return out
}

// span returns the lowest and highest of n scores.
func span(n int, score func(int) float64) (lo, hi float64) {
	for i := range n {
		v := score(i)
		if i == 0 || v < lo {
			lo = v
		}
		if i == 0 || v > hi {
			hi = v
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

// sortScored sorts candidates by key descending, then by tool name (a
// total order: names are unique).
func (st *state) sortScored(cs []scored, key func(scored) float64) {
	tools := st.snap.Tools()
	slices.SortFunc(cs, func(a, b scored) int {
		if ka, kb := key(a), key(b); ka != kb {
			if ka > kb {
				return -1
			}
			return 1
		}
		return strings.Compare(tools[a.id].Name, tools[b.id].Name)
	})
}

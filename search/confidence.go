package search

import "strings"

// Gate is the semantic confidence gate: semantic results are trusted when
//
//	confidence = top + MarginWeight·(top − mean of the next marginDepth scores)
//
// reaches Threshold, where scores are cosine similarities after the common
// component is removed. A clear winner (high top, wide margin) passes; a
// flat list of middling scores (the query matches nothing in particular)
// does not, and the engine answers with keyword search instead.
type Gate struct {
	// Threshold is the confidence below which the engine falls back.
	Threshold float64
	// MarginWeight weighs the top score's margin over the next ones.
	MarginWeight float64
}

// marginDepth is how many runner-up scores the margin is measured against.
const marginDepth = 4

// confidence computes the gate's confidence from semantic candidates
// sorted best first (scored by cosine).
func (g Gate) confidence(hs []hit) float64 {
	if len(hs) == 0 {
		return 0
	}
	top := hs[0].score
	var sum float64
	n := 0
	for _, h := range hs[1:min(len(hs), marginDepth+1)] {
		sum += h.score
		n++
	}
	margin := 0.0
	if n > 0 {
		margin = top - sum/float64(n)
	}
	return clamp01(top + g.MarginWeight*margin)
}

// builtinPrefix begins the model id of the built-in word-vector model,
// which embeds in process.
const builtinPrefix = "builtin:"

// gates holds the calibrated gate per embedding model family, matched by
// model id prefix; see docs/benchmarks.md for how each was measured.
var gates = []struct {
	prefix string
	gate   Gate
}{
	{builtinPrefix, Gate{Threshold: 0.40, MarginWeight: 1}},
}

// defaultGate is the gate of models without a calibration: permissive,
// since an uncalibrated gate that rejects good results costs more than one
// that lets fusion weigh them.
var defaultGate = Gate{Threshold: 0.2, MarginWeight: 1}

// gateFor returns the gate calibrated for a model id.
func gateFor(modelID string) Gate {
	for _, g := range gates {
		if strings.HasPrefix(modelID, g.prefix) {
			return g.gate
		}
	}
	return defaultGate
}

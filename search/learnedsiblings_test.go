package search

import (
	"math"
	"testing"

	"github.com/toolsearch/toolsearch/fallback"
)

// TestSiblingDemote: a server's most similar learned candidate whose
// distinct match is below learnSiblingDistinct is scaled by its share of
// it when a sibling candidate's distinct match reaches it, and only then;
// a tool of another server, and the other siblings, keep theirs.
func TestSiblingDemote(t *testing.T) {
	st := siblingTerms{
		server: []int32{0, 0, 1},
		ids:    [][]int32{{0, 1}, {2}, {0}},
		w:      [][]float32{{0.1, 0.1}, {1}, {1}},
	}
	cands := []fallback.Hit{{ID: 0, Score: 0.8}, {ID: 1, Score: 0.4}, {ID: 2, Score: 0.5}}
	set := func(ids ...int32) termSet {
		s := make(termSet, 1)
		for _, id := range ids {
			s[0] |= 1 << id
		}
		return s
	}
	tests := []struct {
		name string
		set  termSet
		want []float64
	}{
		{"a sibling says a word of its own", set(0, 1, 2), []float64{0.8 * 0.2 / learnSiblingDistinct, 0.4, 0.5}},
		{"no sibling does", set(0, 1), []float64{0.8, 0.4, 0.5}},
	}
	for _, tt := range tests {
		kws := []float64{0.8, 0.4, 0.5}
		st.siblingDemote(cands, tt.set, kws, nil)
		for k := range kws {
			if math.Abs(kws[k]-tt.want[k]) > 1e-6 {
				t.Errorf("%s: similarities %v, want %v", tt.name, kws, tt.want)
				break
			}
		}
	}
	// The most similar sibling matching by a word of its own is kept.
	st.w[0] = []float32{1, 1}
	kws := []float64{0.8, 0.4, 0.5}
	st.siblingDemote(cands, set(0, 1, 2), kws, nil)
	if kws[0] != 0.8 {
		t.Errorf("a sibling with a distinct match of 2 was demoted: %v", kws)
	}
}

// TestSiblingDemoteDepth: siblingDemote reads as many candidates as it is
// given, more than learnedKeywordDepth too (its buffer once held only
// that many and panicked beyond), and demotes the server's most similar
// candidate wherever it stands.
func TestSiblingDemoteDepth(t *testing.T) {
	n := learnedKeywordDepth + 5
	st := siblingTerms{server: make([]int32, n), ids: make([][]int32, n), w: make([][]float32, n)}
	cands := make([]fallback.Hit, n)
	kws := make([]float64, n)
	for i := range n {
		st.server[i] = int32(i) // each tool its own server ...
		st.ids[i], st.w[i] = []int32{0}, []float32{1}
		cands[i] = fallback.Hit{ID: i, Score: 0.1}
		kws[i] = 0.1
	}
	// ... but the last two, siblings: the last matches by their server's
	// word alone (term 0, weight 0.1), the other by a word of its own.
	st.server[n-2], st.server[n-1] = int32(n), int32(n)
	st.ids[n-2], st.w[n-2] = []int32{1}, []float32{1}
	st.w[n-1] = []float32{0.1}
	kws[n-1] = 0.9
	st.siblingDemote(cands, termSet{0b11}, kws, nil)
	if want := 0.9 * 0.1 / learnSiblingDistinct; math.Abs(kws[n-1]-want) > 1e-6 {
		t.Errorf("candidate %d of %d: similarity %v, want %v", n-1, n, kws[n-1], want)
	}
}

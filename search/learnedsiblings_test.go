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

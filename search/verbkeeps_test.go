package search

import (
	"slices"
	"testing"
)

// TestLearnedKeeps: beside hits learning lifted, a hit it did not lift
// keeps its place against the verb unless a hit doing the verb was lifted
// strongly (learnedServesStrength); hits learning lifted never keep.
// "Draw a flowchart … using Mermaid" kept mermaid-validator first though
// one session lifted the painter tools, which say "draw", by 0.08.
func TestLearnedKeeps(t *testing.T) {
	weak := &Learned{Similarity: 0.27, Evidence: 1}   // one session, a weak resemblance: 0.6 · 0.5 · 0.27 = 0.08
	strong := &Learned{Similarity: 0.57, Evidence: 4} // 0.9 · 0.8 · 0.57 = 0.41
	if liftStrength(weak) >= learnedServesStrength || liftStrength(strong) < learnedServesStrength {
		t.Fatalf("strengths %.3f, %.3f: the cases test nothing", liftStrength(weak), liftStrength(strong))
	}
	for _, tt := range []struct {
		name string
		top  []hit
		does []bool
		want []bool
	}{
		{"nothing lifted: the rule as without learning", []hit{{id: 0}, {id: 1}, {id: 2}}, []bool{false, true, false}, nil},
		{"a weak lift of a doer: the catalog's own hits keep", []hit{{id: 0}, {id: 1, learned: weak}, {id: 2}}, []bool{false, true, false}, []bool{true, false, true}},
		{"a strong lift of a doer: the verb reads", []hit{{id: 0}, {id: 1, learned: strong}, {id: 2}}, []bool{false, true, false}, nil},
		{"a strong lift of a hit not doing the verb keeps nothing of its own", []hit{{id: 0, learned: strong}, {id: 1, learned: weak}, {id: 2}}, []bool{false, true, false}, []bool{false, false, true}},
	} {
		if got := learnedKeeps(tt.top, tt.does); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

package search

import (
	"math"
	"testing"
)

// TestKeepTop: after a learned lift is taken back (takeBackLifts), keepTop
// scales every score so that the best hit keeps the best score before
// (the request rules order, they do not judge the match); it leaves
// scores alone when the best is already there, and an empty list or a
// best at 0 alone.
func TestKeepTop(t *testing.T) {
	for _, c := range []struct {
		scores []float64
		top    float64
		want   []float64
	}{
		{[]float64{0.4, 0.3, 0.1}, 0.8, []float64{0.8, 0.6, 0.2}},
		{[]float64{0.8, 0.3}, 0.8, []float64{0.8, 0.3}},
		{[]float64{0.9, 0.3}, 0.8, []float64{0.9, 0.3}}, // never lowered
		{[]float64{0, 0}, 0.8, []float64{0, 0}},
		{nil, 0.8, nil},
	} {
		hs := make([]hit, len(c.scores))
		for i, s := range c.scores {
			hs[i] = hit{id: i, score: s}
		}
		keepTop(hs, c.top, true)
		for i, h := range hs {
			if math.Abs(h.score-c.want[i]) > 1e-12 {
				t.Errorf("keepTop(%v, %v): hit %d scores %v, want %v", c.scores, c.top, i, h.score, c.want[i])
			}
		}
	}
}

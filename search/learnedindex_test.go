package search

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/embed"
)

// The screen never rules out a vector the scans would act on: on random
// unit vectors, many placed within a hair of the thresholds, the tools and
// exact cosines the screened scans find are those of a scan of every
// vector.
func TestLearnedScreenIsExact(t *testing.T) {
	const dim, tools = 100, 300
	rng := rand.New(rand.NewPCG(25, 1))
	unit := func() []float32 {
		v := make([]float32, dim)
		for k := range v {
			v[k] = float32(rng.NormFloat64())
		}
		embed.Normalize(v)
		return v
	}
	// near returns a unit vector whose cosine with q is about c.
	near := func(q []float32, c float64) []float32 {
		r := unit()
		d := dot(q, r)
		for k := range r {
			r[k] -= float32(d) * q[k]
		}
		embed.Normalize(r)
		v := make([]float32, dim)
		s := math.Sqrt(1 - c*c)
		for k := range v {
			v[k] = float32(c)*q[k] + float32(s)*r[k]
		}
		embed.Normalize(v)
		return v
	}
	queries := make([][]float32, 11) // prime to 5 and 7: every query gets every case
	for i := range queries {
		queries[i] = unit()
	}
	centroid := make([][]float32, tools)
	vecs := make([][][]float32, tools)
	for i := range tools {
		q := queries[i%len(queries)]
		// Around each threshold, within and beyond the screen's margin.
		off := []float64{-2e-4, -1e-5, -1e-7, 0, 1e-7, 1e-5, 2e-4}[i%7]
		centroid[i] = near(q, learnCosineFloor+off)
		for k := range i % 5 { // 0 to 4 learned vectors
			switch k {
			case 0:
				vecs[i] = append(vecs[i], near(q, learnedVectorJoin+off))
			case 1:
				vecs[i] = append(vecs[i], near(q, learnedVectorJoin-off))
			default:
				vecs[i] = append(vecs[i], unit())
			}
		}
	}
	centroid[3] = nil // a tool whose learned queries had no vector
	s := newLearnedScreen(centroid, vecs)
	for qi, q := range queries {
		var wantC, gotC, wantV, gotV []float64
		for i, c := range centroid {
			if x := dot(q, c); x > learnCosineFloor {
				wantC = append(wantC, float64(i), x)
			}
		}
		s.centroidsAbove(q, learnCosineFloor, func(i int) {
			if x := dot(q, centroid[i]); x > learnCosineFloor {
				gotC = append(gotC, float64(i), x)
			}
		})
		for i, vs := range vecs {
			best := -1.0
			for _, v := range vs {
				best = max(best, float64(dot32(q, v)))
			}
			if best >= learnedVectorJoin {
				wantV = append(wantV, float64(i), best)
			}
		}
		s.vectorsAbove(q, learnedVectorJoin, func(i int, ks []int) {
			best := -1.0
			for _, k := range ks {
				best = max(best, float64(dot32(q, vecs[i][k])))
			}
			if best >= learnedVectorJoin {
				gotV = append(gotV, float64(i), best)
			}
		})
		if len(wantC) == 0 || len(wantV) == 0 {
			t.Fatalf("query %d: nothing above the thresholds; the test tests nothing", qi)
		}
		if diff := cmp.Diff(wantC, gotC); diff != "" {
			t.Errorf("query %d: centroids above learnCosineFloor (-scan +screen):\n%s", qi, diff)
		}
		if diff := cmp.Diff(wantV, gotV); diff != "" {
			t.Errorf("query %d: learned vectors above learnedVectorJoin (-scan +screen):\n%s", qi, diff)
		}
	}
}

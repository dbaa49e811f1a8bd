package search

import "github.com/viterin/vek/vek32"

// The learned stage's vector scans (learned.go) compare the query with
// every learned tool's centroid (applyLearned) and with every learned
// query's vector (learnedVectors) on every search: with ~1,000 tools
// learned, ~4,000 dot products of 100 dimensions, which made a search
// three times slower than without learning (BenchmarkLearnedSearch). Both
// scans only act on the few vectors above a high cosine (learnCosineFloor,
// learnedVectorJoin), and their results must not change by a bit; so
// learnedScreen screens every vector with a fast dot product (vek32.Dot,
// AVX2/FMA assembly: another summation order, so its last bits differ) and
// only the vectors the screen cannot rule out are scored again with the
// scans' own arithmetic (dot, dot32). The screen rules a vector out only
// when its fast cosine is below the threshold by more than screenMargin,
// far more than the two sums can differ, so no vector that passes the
// threshold is ever ruled out.

// screenMargin is how far below a threshold a screened cosine may be and
// still be scored exactly. Two float32 sums of 100 products of unit
// vectors' components differ by at most about 100 · 2⁻²⁴ · Σ|aᵢbᵢ| ≤ 6e-6
// (and dot's float64 sum is closer to the truth than either); 1e-4 is
// more than ten times that and still rules out all but a handful.
const screenMargin = 1e-4

// learnedScreen holds one scope's learned vectors laid out for screening;
// immutable, built with the learned index (learner.centroids).
type learnedScreen struct {
	dim int
	// centroids are the tools' centroids, row i the centroid of tool i
	// (learnedIndex.centroid), or nil.
	centroids []float32
	// vecs are the learned queries' vectors (learnedIndex.vecs), tool
	// after tool; rows[i]:rows[i+1] are tool i's.
	vecs []float32
	rows []int
}

// newLearnedScreen lays out an index's centroids and learned vectors.
// Vectors of another length than the first are left out of the layout
// (and the scans that use it treat them as dot and dot32 do: cosine 0).
func newLearnedScreen(centroid [][]float32, vecs [][][]float32) *learnedScreen {
	s := &learnedScreen{dim: -1, rows: make([]int, len(vecs)+1)}
	for _, c := range centroid {
		if len(c) > 0 {
			s.dim = len(c)
			break
		}
	}
	if s.dim < 0 {
		for _, vs := range vecs {
			if len(vs) > 0 {
				s.dim = len(vs[0])
				break
			}
		}
	}
	if s.dim <= 0 {
		return nil
	}
	s.centroids = make([]float32, len(centroid)*s.dim)
	for i, c := range centroid {
		if len(c) == s.dim {
			copy(s.centroids[i*s.dim:], c)
		}
	}
	for i, vs := range vecs {
		for _, v := range vs {
			if len(v) == s.dim {
				s.vecs = append(s.vecs, v...)
			} else {
				s.vecs = append(s.vecs, make([]float32, s.dim)...)
			}
		}
		s.rows[i+1] = s.rows[i] + len(vs)
	}
	return s
}

// centroidsAbove calls f with each tool whose centroid's screened cosine
// with q is at least floor − screenMargin, in tool order: the only tools
// whose exact cosine can exceed floor. q must be as long as the centroids.
func (s *learnedScreen) centroidsAbove(q []float32, floor float64, f func(i int)) {
	if s == nil || len(q) != s.dim {
		return
	}
	cut := float32(floor - screenMargin)
	for i := 0; i < len(s.centroids)/s.dim; i++ {
		if vek32.Dot(q, s.centroids[i*s.dim:(i+1)*s.dim]) >= cut {
			f(i)
		}
	}
}

// vectorsAbove calls f with each tool that has a learned vector whose
// screened cosine with q is at least floor − screenMargin, in tool order,
// and those of its vectors (by their index in learnedIndex.vecs[i]; f
// must not keep the slice); the other vectors' exact cosine is below
// floor. q must be as long as the vectors.
func (s *learnedScreen) vectorsAbove(q []float32, floor float64, f func(i int, ks []int)) {
	if s == nil || len(q) != s.dim {
		return
	}
	cut := float32(floor - screenMargin)
	var ks []int
	for i := 0; i+1 < len(s.rows); i++ {
		ks = ks[:0]
		for r := s.rows[i]; r < s.rows[i+1]; r++ {
			if vek32.Dot(q, s.vecs[r*s.dim:(r+1)*s.dim]) >= cut {
				ks = append(ks, r-s.rows[i])
			}
		}
		if len(ks) > 0 {
			f(i, ks)
		}
	}
}

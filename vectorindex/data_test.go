package vectorindex

import (
	"math"
	"math/rand"
)

// normalize scales v to unit length in place (a zero vector stays zero).
func normalize(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return v
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
	return v
}

// randomVectors returns n unit vectors drawn uniformly from the sphere: the
// hardest case for a graph index, with no structure to exploit.
func randomVectors(n, dim int, seed int64) [][]float32 {
	r := rand.New(rand.NewSource(seed))
	out := make([][]float32, n)
	for i := range out {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		out[i] = normalize(v)
	}
	return out
}

// clusteredVectors returns n unit vectors around `clusters` random centres
// (centre + Gaussian noise of the given spread per dimension, normalized), the
// shape of real embeddings: tools of one server or topic sit close together,
// with near-duplicates inside a cluster. The centres depend only on
// centreSeed, so data and queries drawn with different noiseSeeds share them.
func clusteredVectors(n, dim, clusters int, spread float64, centreSeed, noiseSeed int64) [][]float32 {
	vecs, _ := labelledVectors(n, dim, clusters, spread, centreSeed, noiseSeed)
	return vecs
}

// labelledVectors is clusteredVectors that also returns each vector's
// cluster (the index of its centre), the stand-in for a tool's server.
func labelledVectors(n, dim, clusters int, spread float64, centreSeed, noiseSeed int64) ([][]float32, []int) {
	r := rand.New(rand.NewSource(noiseSeed))
	centres := randomVectors(clusters, dim, centreSeed)
	out := make([][]float32, n)
	labels := make([]int, n)
	for i := range out {
		labels[i] = r.Intn(clusters)
		c := centres[labels[i]]
		v := make([]float32, dim)
		for j := range v {
			v[j] = c[j] + float32(r.NormFloat64()*spread)
		}
		out[i] = normalize(v)
	}
	return out, labels
}

// seqIDs returns 0..n-1.
func seqIDs(n int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	return ids
}

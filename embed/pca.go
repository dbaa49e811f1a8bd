package embed

import "math"

// Power iteration settings for FirstComponent.
const (
	// pcaIterations bounds the power iterations. The first component of a
	// catalog's sentence vectors dominates the others (it is the direction
	// shared by every text), so convergence takes a handful of rounds; 100
	// rounds of 2,500 vectors × 100 dims take about 25 ms.
	pcaIterations = 100
	// pcaTolerance stops the iteration once the component moves less than
	// this (1 − cosine between successive estimates), e.g. 1e-9 ≈ 0.003°.
	pcaTolerance = 1e-9
)

// Products below are converted explicitly (float64(a*b)) before they are
// added: the conversion forbids fusing them into a multiply-add, which some
// architectures would otherwise do, so results are bit-identical everywhere.

// FirstComponent returns the unit-length first principal direction of vecs
// (uncentred, as in SIF: the direction of largest mean squared projection),
// computed by deterministic power iteration. Zero vectors and vectors whose
// length differs from the first non-empty one are ignored. It returns nil
// when there is no usable vector. The sign is fixed so that the largest
// component by magnitude is positive, making the result reproducible.
//
// It does not modify vecs and is safe for concurrent use.
func FirstComponent(vecs [][]float32) []float32 {
	dims := 0
	for _, v := range vecs {
		if len(v) > 0 {
			dims = len(v)
			break
		}
	}
	if dims == 0 {
		return nil
	}
	// Accumulate the dims×dims second-moment matrix once; each iteration is
	// then O(dims²) rather than O(len(vecs)·dims).
	cov := make([]float64, dims*dims)
	used := 0
	for _, v := range vecs {
		if len(v) != dims || isZero(v) {
			continue
		}
		used++
		for i, x := range v {
			xi := float64(x)
			row := cov[i*dims : (i+1)*dims]
			for j, y := range v {
				row[j] += float64(xi * float64(y)) // conversion: no fused multiply-add
			}
		}
	}
	if used == 0 {
		return nil
	}
	// Start from the mean direction (close to the answer for sentence vectors)
	// plus a fixed ramp, so that the start is never orthogonal to it.
	x := make([]float64, dims)
	for _, v := range vecs {
		if len(v) != dims {
			continue
		}
		for i, c := range v {
			x[i] += float64(c)
		}
	}
	for i := range x {
		x[i] += 1e-3 * float64(i+1) / float64(dims)
	}
	if normalize64(x) == 0 {
		return nil
	}
	y := make([]float64, dims)
	for range pcaIterations {
		for i := range y {
			var s float64
			row := cov[i*dims : (i+1)*dims]
			for j, c := range row {
				s += float64(c * x[j])
			}
			y[i] = s
		}
		if normalize64(y) == 0 {
			return nil
		}
		var dot float64
		for i := range x {
			dot += float64(x[i] * y[i])
		}
		x, y = y, x
		if 1-math.Abs(dot) < pcaTolerance {
			break
		}
	}
	big := 0
	for i := range x {
		if math.Abs(x[i]) > math.Abs(x[big]) {
			big = i
		}
	}
	sign := 1.0
	if x[big] < 0 {
		sign = -1
	}
	pc := make([]float32, dims)
	for i := range x {
		pc[i] = float32(sign * x[i])
	}
	return pc
}

// RemoveComponent returns v minus its projection on the unit vector pc,
// L2-normalized, in a new slice. A zero v, or a v that is parallel to pc,
// gives a zero vector ("no signal"); a nil pc or one of another length
// returns a normalized copy of v.
//
// It does not modify its arguments and is safe for concurrent use.
func RemoveComponent(v, pc []float32) []float32 {
	out := make([]float32, len(v))
	copy(out, v)
	if len(pc) == len(v) {
		var dot float64
		for i := range v {
			dot += float64(float64(v[i]) * float64(pc[i]))
		}
		for i := range out {
			out[i] -= float32(dot) * pc[i]
		}
	}
	Normalize(out)
	return out
}

// normalize64 scales x to unit length in place and returns its former length
// (0 leaves x untouched).
func normalize64(x []float64) float64 {
	var s float64
	for _, c := range x {
		s += c * c
	}
	n := math.Sqrt(s)
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		return 0
	}
	for i := range x {
		x[i] /= n
	}
	return n
}

// Normalize scales v to unit length in place; a vector shorter than 1e-6,
// or one whose length is not finite, is set to all zeros.
func Normalize(v []float32) {
	var s float64
	for _, c := range v {
		s += float64(c) * float64(c)
	}
	n := math.Sqrt(s)
	if n < minNorm || math.IsNaN(n) || math.IsInf(n, 0) {
		clear(v)
		return
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
}

func isZero(v []float32) bool {
	for _, c := range v {
		if c != 0 {
			return false
		}
	}
	return true
}

// minNorm is the length below which a vector counts as zero when
// normalizing: e.g. a unit vector that lies along the removed component
// leaves a residue of rounding noise (~1e-8), which must not be blown up to
// a unit vector.
const minNorm = 1e-6

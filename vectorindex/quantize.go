package vectorindex

import (
	"fmt"
	"math"
)

// Quantization selects how an HNSW index stores its vectors
// (HNSWConfig.Quantization).
type Quantization uint8

const (
	// QuantizeNone stores each value as a float32: 4 bytes per dimension.
	QuantizeNone Quantization = iota
	// QuantizeInt8 stores each vector as int8 codes with one float32 scale
	// (the largest absolute value / 127): 1 byte per dimension plus 4 per
	// vector, a quarter of the float32 store at 100 dimensions (104 bytes
	// instead of 400). Queries are quantized the same way and every
	// similarity is the integer dot product of the codes times both
	// scales, so scores carry a relative error of about 1 % and near-ties
	// may swap; docs/benchmarks.md has its measured recall and nDCG cost.
	// Search results are not re-ranked with float vectors: none are kept.
	QuantizeInt8
)

// String names q as the flags that select it do: "none" or "int8".
func (q Quantization) String() string {
	switch q {
	case QuantizeNone:
		return "none"
	case QuantizeInt8:
		return "int8"
	}
	return fmt.Sprintf("Quantization(%d)", uint8(q))
}

// ParseQuantization is the inverse of Quantization.String; "" is none.
func ParseQuantization(s string) (Quantization, error) {
	switch s {
	case "", "none", "float32":
		return QuantizeNone, nil
	case "int8":
		return QuantizeInt8, nil
	}
	return 0, fmt.Errorf("quantization %q: use none or int8", s)
}

// int8Max is the largest code: a vector's largest absolute value maps to
// ±int8Max (symmetric, so -128 is never used and negation is exact).
const int8Max = 127

// quantizeInt8 writes v's codes to dst (len(v) of them) and returns the
// scale: v[i] ≈ float32(dst[i]) · scale. A zero vector has scale 0.
func quantizeInt8(dst []int8, v []float32) float32 {
	var m float32
	for _, x := range v {
		m = max(m, float32(math.Abs(float64(x))))
	}
	scale := m / int8Max
	if scale == 0 { // a zero vector, or one so small its scale underflows
		clear(dst[:len(v)])
		return 0
	}
	inv := int8Max / float64(m)
	for i, x := range v {
		dst[i] = int8(math.Round(float64(x) * inv))
	}
	return scale
}

// checkCodes reports whether int8 codes and their scale could have come
// from quantizeInt8: a finite, non-negative scale, no -128 code, and (for
// a non-zero scale) some code of magnitude int8Max.
func checkCodes(c []int8, scale float32) error {
	if math.IsNaN(float64(scale)) || math.IsInf(float64(scale), 0) || scale < 0 {
		return fmt.Errorf("scale %v: %w", scale, ErrInvalidVector)
	}
	top := int8(0)
	for _, x := range c {
		if x == -128 {
			return fmt.Errorf("code -128: %w", ErrInvalidVector)
		}
		top = max(top, x, -x)
	}
	if (scale == 0) != (top == 0) || scale != 0 && top != int8Max {
		return fmt.Errorf("largest code %d with scale %v: %w", top, scale, ErrInvalidVector)
	}
	return nil
}

// point is a vector as the index scores it: float32 values (f), or int8
// codes (c) with their scale. The query of a search and a stored slot
// acting as one (while linking) are points.
type point struct {
	f     []float32
	c     []int8
	scale float32
}

// queryPoint prepares q, already validated, for scoring against the
// stored vectors: as it is, or quantized like them.
func (ix *HNSW) queryPoint(q []float32) point {
	if ix.cfg.Quantization != QuantizeInt8 {
		return point{f: q}
	}
	c := make([]int8, len(q))
	return point{c: c, scale: quantizeInt8(c, q)}
}

// point returns stored slot s as a point.
func (ix *HNSW) point(s int32) point {
	if ix.cfg.Quantization == QuantizeInt8 {
		return point{c: ix.code(s), scale: ix.scales[s]}
	}
	return point{f: ix.vec(s)}
}

// sim is the similarity (dot product) of p and stored slot s.
func (ix *HNSW) sim(p *point, s int32) float32 {
	if p.c != nil {
		return float32(dotInt8(p.c, ix.code(s))) * p.scale * ix.scales[s]
	}
	return dot(p.f, ix.vec(s))
}

// code returns the int8 codes of slot s.
func (ix *HNSW) code(s int32) []int8 {
	return ix.codes[int(s)*ix.dim : (int(s)+1)*ix.dim : (int(s)+1)*ix.dim]
}

// dotInt8Go is the portable dot product of two int8 vectors of equal
// length: four independent accumulators, so the loop is not one chain of
// dependent adds. At 100 dimensions the sum of products is at most
// 100·127² < 2³¹, and any dimension up to 133,000 fits an int32.
func dotInt8Go(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += int32(a[i]) * int32(b[i])
		s1 += int32(a[i+1]) * int32(b[i+1])
		s2 += int32(a[i+2]) * int32(b[i+2])
		s3 += int32(a[i+3]) * int32(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}

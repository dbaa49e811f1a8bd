package vectorindex

import (
	"math"
	"math/rand"
	"testing"
)

// TestQuantizeInt8: every value is within half a step of its code, the
// largest magnitude maps to ±127, and zero or vanishingly small vectors
// get scale 0.
func TestQuantizeInt8(t *testing.T) {
	for _, v := range randomVectors(200, 100, 4) {
		c := make([]int8, len(v))
		scale := quantizeInt8(c, v)
		if err := checkCodes(c, scale); err != nil {
			t.Fatalf("codes of a unit vector rejected: %v", err)
		}
		for i, x := range v {
			if d := math.Abs(float64(x - float32(c[i])*scale)); d > float64(scale)/2*1.0001 {
				t.Fatalf("value %d: %v coded %d × %v, off by %v > half a step", i, x, c[i], scale, d)
			}
		}
	}
	for _, v := range [][]float32{{0, 0, 0}, {1e-45, 0, -1e-45}} {
		c := []int8{5, 5, 5}
		if scale := quantizeInt8(c, v); scale != 0 || c[0] != 0 || c[2] != 0 || checkCodes(c, scale) != nil {
			t.Errorf("quantizeInt8(%v) = %v, codes %v; want scale 0 and zero codes", v, scale, c)
		}
	}
	if checkCodes([]int8{-128, 1}, 1) == nil || checkCodes([]int8{3, 1}, 1) == nil || checkCodes([]int8{127}, float32(math.NaN())) == nil {
		t.Error("checkCodes accepted codes quantizeInt8 cannot produce")
	}
}

// TestDotInt8: the dot product used for scoring equals the portable one at
// every length (tails included) and at the extremes of the codes.
func TestDotInt8(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for n := range 300 {
		a, b := make([]int8, n), make([]int8, n)
		for i := range a {
			a[i], b[i] = int8(r.Intn(255)-127), int8(r.Intn(255)-127)
		}
		if n%7 == 0 {
			for i := range a {
				a[i], b[i] = -127, -127
			}
		}
		var want int32
		for i := range a {
			want += int32(a[i]) * int32(b[i])
		}
		if got, g := dotInt8(a, b), dotInt8Go(a, b); got != want || g != want {
			t.Fatalf("n=%d: dotInt8 = %d, dotInt8Go = %d, want %d", n, got, g, want)
		}
	}
}

// TestInt8Recall is the quality contract of QuantizeInt8 on catalog-like
// vectors (see TestHNSWRecall), fixed seeds: the int8 graph's top 10
// against exact float32 search, and an exact scan of the int8 codes (the
// quantization's own cost, without the graph's).
func TestInt8Recall(t *testing.T) {
	const n, dim, k, nq = 3000, 100, 10, 200
	vecs, queries := clusteredVectors(n, dim, n/100, 0.1, 1, 2), clusteredVectors(nq, dim, n/100, 0.1, 1, 3)
	ix, exact := build(t, HNSWConfig{Quantization: QuantizeInt8}, vecs)
	graph := meanRecall(t, ix, exact, queries, k)
	var scan float64
	for _, q := range queries {
		got, err := ix.SearchExact(q, k, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := exact.Search(q, k)
		scan += Recall(got, want)
	}
	scan /= nq
	t.Logf("int8: recall@%d graph %.4f, exact scan of the codes %.4f (against float32 exact)", k, graph, scan)
	if graph < 0.97 || scan < 0.97 {
		t.Errorf("int8 recall@%d: graph %.4f, scan %.4f; want ≥ 0.97", k, graph, scan)
	}
}

// TestInt8Churn: with QuantizeInt8, deletions, replacements and the
// compaction they trigger keep every live vector findable by its own
// vector (its codes are carried over, not re-quantized).
func TestInt8Churn(t *testing.T) {
	const n, dim = 2000, 32
	vecs := clusteredVectors(n, dim, 20, 0.1, 1, 2)
	ix := NewHNSW(dim, HNSWConfig{Quantization: QuantizeInt8, Seed: 1})
	if err := ix.Add(seqIDs(n), vecs); err != nil {
		t.Fatal(err)
	}
	var del []int
	for i := 0; i < n; i += 2 {
		del = append(del, i)
	}
	ix.Delete(del...) // half: past compactFraction, so the graph is rebuilt
	if ix.nDeleted != 0 || ix.Len() != n/2 || len(ix.scales) != n/2 || len(ix.codes) != n/2*dim {
		t.Fatalf("after compaction: %d tombstones, %d live, %d scales, %d codes", ix.nDeleted, ix.Len(), len(ix.scales), len(ix.codes))
	}
	found := 0
	for i := 1; i < n; i += 2 {
		rs, err := ix.Search(vecs[i], 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) == 1 && rs[0].ID == i {
			found++
		}
	}
	if found < n/2*99/100 {
		t.Errorf("%d of %d live vectors are their own nearest neighbour", found, n/2)
	}
}

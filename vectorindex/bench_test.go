package vectorindex

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

// Benchmarks run on "catalog-like" clustered vectors (see TestHNSWRecall),
// 100 dimensions like the built-in model. Search benchmarks report
// recall@10 against Flat beside ns/op. Run with
//
//	go test ./vectorindex -run '^$' -bench . -benchtime 200x
//
// Build benchmarks rebuild the whole index per iteration; 100k takes
// ~15 s per build on one core, so use -benchtime 1x for it.
const benchDim = 100

var benchData = struct {
	sync.Mutex
	vecs    map[int][][]float32
	queries map[int][][]float32
	hnsw    map[int]*HNSW
	flat    map[int]*Flat
}{vecs: map[int][][]float32{}, queries: map[int][][]float32{}, hnsw: map[int]*HNSW{}, flat: map[int]*Flat{}}

func benchVectors(n int) ([][]float32, [][]float32) {
	benchData.Lock()
	defer benchData.Unlock()
	if benchData.vecs[n] == nil {
		// 1 centre per 100 vectors; queries share the centres.
		benchData.vecs[n] = clusteredVectors(n, benchDim, n/100, 0.1, 1, 2)
		benchData.queries[n] = clusteredVectors(1000, benchDim, n/100, 0.1, 1, 3)
	}
	return benchData.vecs[n], benchData.queries[n]
}

// benchIndexes returns built indexes of n vectors, shared by benchmarks.
func benchIndexes(b testing.TB, n int) (*HNSW, *Flat, [][]float32) {
	vecs, queries := benchVectors(n)
	benchData.Lock()
	defer benchData.Unlock()
	if benchData.hnsw[n] == nil {
		benchData.hnsw[n], benchData.flat[n] = build(b, HNSWConfig{}, vecs)
	}
	return benchData.hnsw[n], benchData.flat[n], queries
}

func benchBuild(b *testing.B, n int) {
	vecs, _ := benchVectors(n)
	ids := seqIDs(n)
	b.ResetTimer()
	for b.Loop() {
		ix := NewHNSW(benchDim, HNSWConfig{})
		if err := ix.Add(ids, vecs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/vector")
}

func BenchmarkHNSWBuild10k(b *testing.B)  { benchBuild(b, 10_000) }
func BenchmarkHNSWBuild100k(b *testing.B) { benchBuild(b, 100_000) }

func benchSearch(b *testing.B, n int, useFlat bool) {
	ix, exact, qs := benchIndexes(b, n)
	var search func(q []float32, k int) ([]Result, error) = ix.Search
	if useFlat {
		search = exact.Search
	}
	var recall float64
	i := 0
	b.ResetTimer()
	for b.Loop() {
		q := qs[i%len(qs)]
		got, err := search(q, 10)
		if err != nil {
			b.Fatal(err)
		}
		if !useFlat && i < len(qs) { // score recall once per query, untimed
			b.StopTimer()
			want, _ := exact.Search(q, 10)
			recall += Recall(got, want)
			b.StartTimer()
		}
		i++
	}
	if !useFlat {
		b.ReportMetric(recall/float64(min(i, len(qs))), "recall@10")
	}
}

func BenchmarkHNSWSearch10k(b *testing.B)  { benchSearch(b, 10_000, false) }
func BenchmarkHNSWSearch100k(b *testing.B) { benchSearch(b, 100_000, false) }
func BenchmarkFlatSearch10k(b *testing.B)  { benchSearch(b, 10_000, true) }
func BenchmarkFlatSearch100k(b *testing.B) { benchSearch(b, 100_000, true) }

// BenchmarkHNSWSearchParallel10k measures throughput with concurrent
// readers (b.RunParallel uses GOMAXPROCS goroutines).
func BenchmarkHNSWSearchParallel10k(b *testing.B) {
	ix, _, qs := benchIndexes(b, 10_000)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, err := ix.Search(qs[i%len(qs)], 10); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
}

// BenchmarkHNSWEfSearch10k shows the recall/latency trade-off of EfSearch.
func BenchmarkHNSWEfSearch10k(b *testing.B) {
	ix, _, _ := benchIndexes(b, 10_000)
	for _, ef := range []int{16, 32, 64, 128, 256} {
		b.Run(fmt.Sprintf("ef=%d", ef), func(b *testing.B) {
			saved := ix.cfg.EfSearch
			ix.cfg.EfSearch = ef
			defer func() { ix.cfg.EfSearch = saved }()
			benchSearch(b, 10_000, false)
		})
	}
}

// BenchmarkHNSWSaveLoad100k saves the 100k index to memory and loads it
// back: the cost of a warm start against BenchmarkHNSWBuild100k's cold one.
func BenchmarkHNSWSaveLoad100k(b *testing.B) {
	ix, _, _ := benchIndexes(b, 100_000)
	var buf bytes.Buffer
	b.Run("save", func(b *testing.B) {
		for b.Loop() {
			buf.Reset()
			if _, err := ix.WriteTo(&buf); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(buf.Len())/100_000, "bytes/vector")
	})
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			if _, err := ReadHNSW(bytes.NewReader(buf.Bytes())); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDot compares the scoring kernels at the built-in model's 100
// dimensions: float32 (vek32), int8 (AVX2 where present) and the portable
// int8 loop.
func BenchmarkDot(b *testing.B) {
	vs := randomVectors(2, benchDim, 1)
	c0, c1 := make([]int8, benchDim), make([]int8, benchDim)
	quantizeInt8(c0, vs[0])
	quantizeInt8(c1, vs[1])
	var sf float32
	var si int32
	b.Run("float32", func(b *testing.B) {
		for b.Loop() {
			sf += dot(vs[0], vs[1])
		}
	})
	b.Run("int8", func(b *testing.B) {
		for b.Loop() {
			si += dotInt8(c0, c1)
		}
	})
	b.Run("int8-portable", func(b *testing.B) {
		for b.Loop() {
			si += dotInt8Go(c0, c1)
		}
	})
	_, _ = sf, si
}

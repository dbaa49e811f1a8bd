package vectorindex

import (
	"fmt"
	"math/rand"
	"testing"
)

// Filtered search benchmarks: 100k catalog-like vectors (the data of
// BenchmarkHNSWSearch100k), filters keeping 1 %, 10 % and 50 % of them,
// each drawn two ways:
//
//   - "random": each ID kept with that probability (a scope listing
//     arbitrary tools);
//   - "clusters": whole clusters kept (a scope of whole servers, whose
//     tools sit together), so most queries' own cluster is filtered out
//     and the kept vectors lie away from where the walk starts.
//
// Each reports recall@10 against SearchExact with the same filter, for the
// strategy SearchFilter picks ("auto"), the exact scan ("exact"), the graph
// walk as SearchFilter runs it when it chooses the graph, its guard
// answering exactly where the filter keeps few of the query's neighbours
// ("walk"), and the bare walk without that guard ("graph"). Run with
//
//	nice -n 10 go test ./vectorindex -run '^$' -bench 'Filter' -benchtime 1000x -timeout 30m
var filterFractions = []float64{0.01, 0.10, 0.50}

// benchFilter returns a filter over IDs 0..n-1 keeping about frac of them.
func benchFilter(n int, frac float64, clusters bool) *IDSet {
	keep := &IDSet{}
	if clusters {
		_, labels := labelledVectors(n, benchDim, n/100, 0.1, 1, 2)
		every := int(1/frac + 0.5)
		for id, l := range labels {
			if l%every == 0 {
				keep.Add(id)
			}
		}
		return keep
	}
	r := rand.New(rand.NewSource(5))
	for id := range n {
		if r.Float64() < frac {
			keep.Add(id)
		}
	}
	return keep
}

func benchFilterSearch(b *testing.B, n int) {
	ix, _, qs := benchIndexes(b, n)
	for _, kind := range []string{"random", "clusters"} {
		for _, frac := range filterFractions {
			keep := benchFilter(n, frac, kind == "clusters")
			for _, strategy := range []string{"auto", "exact", "walk", "graph"} {
				name := fmt.Sprintf("%s/keep=%g%%/%s", kind, frac*100, strategy)
				b.Run(name, func(b *testing.B) {
					search := func(q []float32) []Result {
						switch strategy {
						case "graph":
							ix.mu.RLock()
							defer ix.mu.RUnlock()
							rs, _, _ := ix.graph(&point{f: q}, 10, keep)
							return rs
						case "walk":
							ix.mu.RLock()
							defer ix.mu.RUnlock()
							rs, local, ef := ix.graph(&point{f: q}, 10, keep)
							if len(rs) < 10 || farFromQuery(local, ef, keep.Len(), len(ix.slot)) {
								return ix.exact(&point{f: q}, 10, keep)
							}
							return rs
						case "exact":
							rs, _ := ix.SearchExact(q, 10, keep)
							return rs
						}
						rs, _ := ix.SearchFilter(q, 10, keep)
						return rs
					}
					var recall float64
					i := 0
					for b.Loop() {
						q := qs[i%len(qs)]
						got := search(q)
						if i < len(qs) {
							b.StopTimer()
							want, _ := ix.SearchExact(q, 10, keep)
							recall += Recall(got, want)
							b.StartTimer()
						}
						i++
					}
					b.ReportMetric(recall/float64(min(i, len(qs))), "recall@10")
					b.ReportMetric(float64(keep.Len()), "kept")
				})
			}
		}
	}
}

func BenchmarkFilter10k(b *testing.B)  { benchFilterSearch(b, 10_000) }
func BenchmarkFilter100k(b *testing.B) { benchFilterSearch(b, 100_000) }

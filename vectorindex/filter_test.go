package vectorindex

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIDSet(t *testing.T) {
	s := NewIDSet(3, 64, 3, -1, 200, 0)
	if got, want := s.Len(), 4; got != want {
		t.Errorf("Len = %d, want %d (duplicates and negatives not counted)", got, want)
	}
	for id, want := range map[int]bool{0: true, 3: true, 64: true, 200: true, 1: false, 63: false, 65: false, 199: false, 1 << 40: false, -1: false, math.MinInt: false} {
		if got := s.Has(id); got != want {
			t.Errorf("Has(%d) = %v, want %v", id, got, want)
		}
	}
	var got []int
	s.each(func(id int) { got = append(got, id) })
	if diff := cmp.Diff([]int{0, 3, 64, 200}, got); diff != "" {
		t.Errorf("each (-want +got):\n%s", diff)
	}
	var zero IDSet
	if zero.Len() != 0 || zero.Has(0) {
		t.Errorf("zero IDSet: Len %d, Has(0) %v; want 0, false", zero.Len(), zero.Has(0))
	}
}

// TestSearchFilter checks SearchFilter's contract on small indexes, with
// and without a graph (ExactLimit 0 forces one).
func TestSearchFilter(t *testing.T) {
	const dim = 4
	ids := []int{10, 20, 30, 40}
	vecs := [][]float32{axis(dim, 0), vec(1, 1, 0, 0), axis(dim, 1), axis(dim, 2)}
	tests := []struct {
		name string
		keep *IDSet
		k    int
		want []Result
	}{
		{"nil filter keeps all", nil, 2, []Result{{10, 1}, {20, float32(1 / math.Sqrt2)}}},
		{"filter drops the best", NewIDSet(20, 30, 40), 2, []Result{{20, float32(1 / math.Sqrt2)}, {30, 0}}},
		{"k above kept returns all kept", NewIDSet(30, 40), 10, []Result{{30, 0}, {40, 0}}},
		{"IDs not stored are ignored", NewIDSet(40, 41, 1000), 5, []Result{{40, 0}}},
		{"negative IDs are never kept", NewIDSet(-10, 30), 5, []Result{{30, 0}}},
		{"empty filter", NewIDSet(), 5, nil},
		{"filter of unknown IDs only", NewIDSet(1, 2, 3), 5, nil},
		{"deleted ID in the filter", NewIDSet(10, 20, 99), 5, []Result{{10, 1}, {20, float32(1 / math.Sqrt2)}}},
		{"k zero", NewIDSet(10), 0, nil},
	}
	for _, graph := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("graph=%v/%s", graph, tt.name), func(t *testing.T) {
				cfg := HNSWConfig{ExactLimit: 100}
				if graph {
					cfg.ExactLimit = -1
				}
				ix := NewHNSW(dim, cfg)
				if err := ix.Add(append(ids, 99), append(vecs, axis(dim, 0))); err != nil {
					t.Fatal(err)
				}
				ix.Delete(99)
				if graph != (ix.entry >= 0) {
					t.Fatalf("graph built = %v, want %v", ix.entry >= 0, graph)
				}
				got, err := ix.SearchFilter(axis(dim, 0), tt.k, tt.keep)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("SearchFilter (-want +got):\n%s", diff)
				}
				exact, err := ix.SearchExact(axis(dim, 0), tt.k, tt.keep)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, exact); diff != "" {
					t.Errorf("SearchExact (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func TestSearchFilterErrors(t *testing.T) {
	ix := NewHNSW(3, HNSWConfig{})
	if err := ix.Add([]int{1}, [][]float32{axis(3, 0)}); err != nil {
		t.Fatal(err)
	}
	for name, search := range map[string]func([]float32, int, *IDSet) ([]Result, error){
		"SearchFilter": ix.SearchFilter, "SearchExact": ix.SearchExact,
	} {
		for _, q := range [][]float32{nil, {1, 0}, {1, 0, 0, 0}} {
			if got, err := search(q, 3, NewIDSet(1)); !errors.Is(err, ErrDimension) || got != nil {
				t.Errorf("%s(%v) = %v, %v; want nil, ErrDimension", name, q, got, err)
			}
		}
		if got, err := search([]float32{float32(math.Inf(-1)), 0, 0}, 3, nil); !errors.Is(err, ErrInvalidVector) || got != nil {
			t.Errorf("%s(Inf) = %v, %v; want nil, ErrInvalidVector", name, got, err)
		}
	}
}

// oracle answers a filtered search from Flat: every vector ranked, the
// filter applied, the first k kept.
func oracle(t *testing.T, flat *Flat, q []float32, k int, keep *IDSet) []Result {
	t.Helper()
	all, err := flat.Search(q, flat.Len())
	if err != nil {
		t.Fatal(err)
	}
	var out []Result
	for _, r := range all {
		if keep == nil || keep.Has(r.ID) {
			out = append(out, r)
		}
	}
	return out[:min(k, len(out))]
}

// TestSearchFilterRecall runs both strategies on 3,000 catalog-like
// vectors (a graph forced) with filters keeping 1 % to 90 %, drawn at
// random and as whole clusters (at least one of the 30): SearchExact must equal the Flat oracle
// exactly, SearchFilter and the graph walk itself must reach recall@10 ≥
// 0.99 (the walk on its own only where its guard trusts it). The 100k
// measurements are BenchmarkFilter100k's.
func TestSearchFilterRecall(t *testing.T) {
	const n, dim, k = 3000, 32, 10
	vecs, labels := labelledVectors(n, dim, n/100, 0.1, 1, 2)
	queries := clusteredVectors(60, dim, n/100, 0.1, 1, 3)
	ix, flat := build(t, HNSWConfig{ExactLimit: -1}, vecs)
	r := rand.New(rand.NewSource(9))
	for _, frac := range []float64{0.01, 0.1, 0.5, 0.9} {
		for _, clusters := range []bool{false, true} {
			keep := &IDSet{}
			for id := range n {
				if clusters && float64(labels[id]) < frac*float64(n/100) || !clusters && r.Float64() < frac {
					keep.Add(id)
				}
			}
			t.Run(fmt.Sprintf("keep=%g%%/clusters=%v", frac*100, clusters), func(t *testing.T) {
				var auto, walk float64
				walked := 0
				for _, q := range queries {
					want := oracle(t, flat, q, k, keep)
					exact, err := ix.SearchExact(q, k, keep)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want, exact); diff != "" {
						t.Fatalf("SearchExact differs from the oracle (-want +got):\n%s", diff)
					}
					got, err := ix.SearchFilter(q, k, keep)
					if err != nil {
						t.Fatal(err)
					}
					auto += Recall(got, want)
					ix.mu.RLock()
					rs, local, ef := ix.graph(&point{f: q}, k, keep)
					ix.mu.RUnlock()
					if len(rs) == k && !farFromQuery(local, ef, keep.Len(), n) {
						walk += Recall(rs, want)
						walked++
					}
					for _, r := range got {
						if !keep.Has(r.ID) {
							t.Fatalf("ID %d returned, not in the filter", r.ID)
						}
					}
				}
				if got := auto / float64(len(queries)); got < 0.99 {
					t.Errorf("SearchFilter recall@%d = %.4f, want ≥ 0.99", k, got)
				}
				if walked > 0 && walk/float64(walked) < 0.99 {
					t.Errorf("graph walk recall@%d = %.4f on the %d queries its guard trusts, want ≥ 0.99", k, walk/float64(walked), walked)
				}
				t.Logf("kept %d: walk trusted on %d of %d queries", keep.Len(), walked, len(queries))
			})
		}
	}
}

// TestFilterStrategy pins the strategy rules with hand-computed cases.
func TestFilterStrategy(t *testing.T) {
	scan := []struct {
		filtered    bool
		kept, live  int
		want        bool
		description string
	}{
		{true, 1_000, 100_000, true, "1 % of 100k"},
		{true, 50_000, 100_000, true, "50 % of 100k: 2.5e9 ≤ 3.28e9"},
		{true, 57_000, 100_000, true, "57 % of 100k: 3.249e9 ≤ 3.2768e9"},
		{true, 58_000, 100_000, false, "58 % of 100k: 3.364e9 > 3.2768e9"},
		{true, 99_000, 300_000, true, "33 % of 300k"},
		{true, 100_000, 300_000, false, "34 % of 300k"},
		{true, 181_000, 1_000_000, true, "18.1 % of 1M"},
		{true, 182_000, 1_000_000, false, "18.2 % of 1M"},
		{false, 20_000, 20_000, false, "no filter: always the graph"},
	}
	for _, tt := range scan {
		if got := scanCheaper(tt.filtered, tt.kept, tt.live); got != tt.want {
			t.Errorf("scanCheaper(%v, %d, %d) = %v, want %v (%s)", tt.filtered, tt.kept, tt.live, got, tt.want, tt.description)
		}
	}
	far := []struct {
		local, ef, kept, live int
		want                  bool
	}{
		{39, 128, 60, 100, false}, // 2·39·100 = 7,800 ≥ 7,680
		{38, 128, 60, 100, true},  // 7,600 < 7,680
		{0, 128, 50_000, 100_000, true},
		{64, 128, 50_000, 100_000, false},
		{32, 128, 50_000, 100_000, false}, // exactly half the share: trusted
		{31, 128, 50_000, 100_000, true},
	}
	for _, tt := range far {
		if got := farFromQuery(tt.local, tt.ef, tt.kept, tt.live); got != tt.want {
			t.Errorf("farFromQuery(%d, %d, %d, %d) = %v, want %v", tt.local, tt.ef, tt.kept, tt.live, got, tt.want)
		}
	}
}

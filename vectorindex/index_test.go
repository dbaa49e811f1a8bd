package vectorindex

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// index is the method set both Flat and HNSW offer; the search package
// declares its own copy of it.
type index interface {
	Add(ids []int, vecs [][]float32) error
	Delete(ids ...int)
	Search(q []float32, k int) ([]Result, error)
	Len() int
	Dim() int
}

var (
	_ index = (*Flat)(nil)
	_ index = (*HNSW)(nil)
)

// indexKinds builds each index type, so behaviour tests run on both.
var indexKinds = []struct {
	name string
	new  func(dim int) index
}{
	{"flat", func(dim int) index { return NewFlat(dim) }},
	{"hnsw", func(dim int) index { return NewHNSW(dim, HNSWConfig{}) }},
}

// axis returns the unit vector along dimension i of a dim-space.
func axis(dim, i int) []float32 {
	v := make([]float32, dim)
	v[i] = 1
	return v
}

func vec(xs ...float32) []float32 { return normalize(xs) }

func TestAddErrors(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	tests := []struct {
		name    string
		dim     int
		ids     []int
		vecs    [][]float32
		wantErr error // nil: any non-nil error
	}{
		{"short vector", 3, []int{1}, [][]float32{{1, 0}}, ErrDimension},
		{"long vector", 3, []int{1}, [][]float32{{1, 0, 0, 0}}, ErrDimension},
		{"bad vector after good ones", 3, []int{1, 2}, [][]float32{{1, 0, 0}, {1}}, ErrDimension},
		{"nil vector", 3, []int{1}, [][]float32{nil}, ErrDimension},
		{"zero-dimension index", 0, []int{1}, [][]float32{{}}, ErrDimension},
		{"negative-dimension index", -1, []int{1}, [][]float32{{1}}, ErrDimension},
		{"NaN", 3, []int{1}, [][]float32{{nan, 0, 0}}, ErrInvalidVector},
		{"Inf", 3, []int{1}, [][]float32{{0, inf, 0}}, ErrInvalidVector},
		{"more ids than vectors", 3, []int{1, 2}, [][]float32{{1, 0, 0}}, nil},
		{"more vectors than ids", 3, []int{1}, [][]float32{{1, 0, 0}, {0, 1, 0}}, nil},
	}
	for _, kind := range indexKinds {
		for _, tt := range tests {
			t.Run(kind.name+"/"+tt.name, func(t *testing.T) {
				ix := kind.new(tt.dim)
				err := ix.Add(tt.ids, tt.vecs)
				if err == nil || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) {
					t.Fatalf("Add = %v, want %v", err, tt.wantErr)
				}
				if ix.Len() != 0 {
					t.Errorf("Len after failed Add = %d, want 0 (batch is all or nothing)", ix.Len())
				}
			})
		}
	}
}

func TestSearchErrors(t *testing.T) {
	tests := []struct {
		name    string
		q       []float32
		wantErr error
	}{
		{"short query", []float32{1}, ErrDimension},
		{"nil query", nil, ErrDimension},
		{"NaN query", []float32{float32(math.NaN()), 0, 0}, ErrInvalidVector},
	}
	for _, kind := range indexKinds {
		for _, tt := range tests {
			t.Run(kind.name+"/"+tt.name, func(t *testing.T) {
				ix := kind.new(3)
				if err := ix.Add([]int{1}, [][]float32{axis(3, 0)}); err != nil {
					t.Fatal(err)
				}
				got, err := ix.Search(tt.q, 5)
				if !errors.Is(err, tt.wantErr) || got != nil {
					t.Errorf("Search = %v, %v; want nil, %v", got, err, tt.wantErr)
				}
			})
		}
	}
}

func TestSearch(t *testing.T) {
	const dim = 4
	base := func(ix index) error {
		return ix.Add([]int{10, 20, 30, 40}, [][]float32{
			axis(dim, 0),
			vec(1, 1, 0, 0),
			axis(dim, 1),
			axis(dim, 2),
		})
	}
	tests := []struct {
		name  string
		setup func(ix index) error
		q     []float32
		k     int
		want  []Result
	}{
		{"empty index", func(index) error { return nil }, axis(dim, 0), 3, nil},
		{"k zero", base, axis(dim, 0), 0, nil},
		{"k negative", base, axis(dim, 0), -1, nil},
		{"best first", base, axis(dim, 0), 2,
			[]Result{{10, 1}, {20, float32(1 / math.Sqrt2)}}},
		{"k above Len returns all", base, axis(dim, 0), 10,
			[]Result{{10, 1}, {20, float32(1 / math.Sqrt2)}, {30, 0}, {40, 0}}},
		{"ties by ID", func(ix index) error {
			v := axis(dim, 3)
			return ix.Add([]int{3, 1, 2}, [][]float32{v, v, v})
		}, axis(dim, 3), 3, []Result{{1, 1}, {2, 1}, {3, 1}}},
		{"re-add replaces", func(ix index) error {
			if err := base(ix); err != nil {
				return err
			}
			return ix.Add([]int{10}, [][]float32{axis(dim, 3)})
		}, axis(dim, 3), 1, []Result{{10, 1}}},
		{"duplicate in batch: last wins", func(ix index) error {
			return ix.Add([]int{5, 5}, [][]float32{axis(dim, 0), axis(dim, 1)})
		}, axis(dim, 1), 5, []Result{{5, 1}}},
		{"delete", func(ix index) error {
			if err := base(ix); err != nil {
				return err
			}
			ix.Delete(10, 99, 10)
			return nil
		}, axis(dim, 0), 10, []Result{{20, float32(1 / math.Sqrt2)}, {30, 0}, {40, 0}}},
		{"zero vector scores 0", func(ix index) error {
			return ix.Add([]int{7, 8}, [][]float32{make([]float32, dim), axis(dim, 0)})
		}, axis(dim, 0), 2, []Result{{8, 1}, {7, 0}}},
	}
	for _, kind := range indexKinds {
		for _, tt := range tests {
			t.Run(kind.name+"/"+tt.name, func(t *testing.T) {
				ix := kind.new(dim)
				if err := tt.setup(ix); err != nil {
					t.Fatal(err)
				}
				got, err := ix.Search(tt.q, tt.k)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("Search (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func TestLenDim(t *testing.T) {
	for _, kind := range indexKinds {
		t.Run(kind.name, func(t *testing.T) {
			ix := kind.new(8)
			vecs := randomVectors(100, 8, 1)
			if err := ix.Add(seqIDs(100), vecs); err != nil {
				t.Fatal(err)
			}
			if err := ix.Add([]int{0, 1}, vecs[:2]); err != nil { // replace
				t.Fatal(err)
			}
			ix.Delete(5, 6, 7, 1000)
			if got, want := ix.Len(), 97; got != want {
				t.Errorf("Len = %d, want %d", got, want)
			}
			if got := ix.Dim(); got != 8 {
				t.Errorf("Dim = %d, want 8", got)
			}
		})
	}
}

// TestConcurrent runs searches while other goroutines add and delete; run
// with -race.
func TestConcurrent(t *testing.T) {
	const dim, n = 16, 600
	vecs := randomVectors(n, dim, 1)
	qs := randomVectors(20, dim, 2)
	for _, kind := range indexKinds {
		t.Run(kind.name, func(t *testing.T) {
			ix := kind.new(dim)
			if err := ix.Add(seqIDs(n/2), vecs[:n/2]); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			errs := make(chan error, 100)
			for w := range 4 {
				wg.Go(func() {
					for i, q := range qs {
						rs, err := ix.Search(q, 5+w+i%3)
						if err != nil {
							errs <- err
							return
						}
						for j := 1; j < len(rs); j++ {
							if compareResults(rs[j-1], rs[j]) >= 0 {
								errs <- fmt.Errorf("results out of order: %v", rs)
								return
							}
						}
					}
				})
			}
			wg.Go(func() {
				for i := n / 2; i < n; i += 10 {
					if err := ix.Add(seqIDs(n)[i:i+10], vecs[i:i+10]); err != nil {
						errs <- err
						return
					}
					ix.Delete(i - n/2)
				}
			})
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			if got, want := ix.Len(), n-n/2/10; got != want { // 30 of the first half deleted
				t.Errorf("Len = %d, want %d", got, want)
			}
		})
	}
}

package vectorindex

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func res(ids ...int) []Result {
	out := make([]Result, len(ids))
	for i, id := range ids {
		out[i] = Result{ID: id}
	}
	return out
}

func TestRecall(t *testing.T) {
	tests := []struct {
		name          string
		approx, exact []Result
		want          float64
	}{
		{"nothing to find", res(1, 2), nil, 1},
		{"all found", res(3, 2, 1), res(1, 2, 3), 1},
		{"none found", res(4, 5), res(1, 2), 0},
		{"half found", res(1, 9), res(1, 2), 0.5},
		{"duplicates count once", res(1, 1, 1), res(1, 2), 0.5},
		{"empty approx", nil, res(1, 2, 3, 4), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Recall(tt.approx, tt.exact); got != tt.want {
				t.Errorf("Recall = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTopK(t *testing.T) {
	in := []Result{{1, 0.5}, {2, 0.9}, {3, 0.5}, {4, -1}, {5, 0.9}, {6, 0.7}, {0, 0.5}}
	tests := []struct {
		k    int
		want []Result
	}{
		{0, []Result{}},
		{1, []Result{{2, 0.9}}},
		{4, []Result{{2, 0.9}, {5, 0.9}, {6, 0.7}, {0, 0.5}}},
		{10, []Result{{2, 0.9}, {5, 0.9}, {6, 0.7}, {0, 0.5}, {1, 0.5}, {3, 0.5}, {4, -1}}},
	}
	for _, tt := range tests {
		tk := newTopK(min(tt.k, len(in)))
		for _, r := range in {
			tk.push(r)
		}
		if diff := cmp.Diff(tt.want, tk.sorted()); diff != "" {
			t.Errorf("k=%d: top (-want +got):\n%s", tt.k, diff)
		}
	}
}

func TestDot(t *testing.T) {
	for _, dim := range []int{1, 3, 8, 13, 100, 384} {
		v := randomVectors(2, dim, int64(dim))
		var want float64
		for i := range v[0] {
			want += float64(v[0][i]) * float64(v[1][i])
		}
		if got := dot(v[0], v[1]); math.Abs(float64(got)-want) > 1e-5 {
			t.Errorf("dim %d: dot = %v, want %v", dim, got, want)
		}
	}
	if got := dot(nil, nil); got != 0 {
		t.Errorf("dot(nil, nil) = %v, want 0", got)
	}
	if got := dot([]float32{1}, []float32{1, 2}); got != 0 {
		t.Errorf("dot of unequal lengths = %v, want 0", got)
	}
}

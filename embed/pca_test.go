package embed

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestFirstComponent(t *testing.T) {
	tests := []struct {
		name string
		vecs [][]float32
		want []float32
	}{
		{"nil", nil, nil},
		{"only zero vectors", [][]float32{{0, 0}, {0, 0}}, nil},
		{"one direction", [][]float32{{0, 2}, {0, -1}, {0, 3}}, []float32{0, 1}},
		{
			"dominant direction among noise",
			[][]float32{{3, 3, 0}, {-2, -2, 0}, {0.1, -0.1, 0}, {0, 0, 0.5}},
			[]float32{1 / math.Sqrt2, 1 / math.Sqrt2, 0},
		},
		{"sign fixed: largest component positive", [][]float32{{-1, 0.1}, {-2, 0.2}}, []float32{0.995037, -0.0995037}},
		{"ignores zero and mismatched vectors", [][]float32{{0, 0}, {1, 0}, {1, 2, 3}}, []float32{1, 0}},
	}
	approx := cmpopts.EquateApprox(0, 1e-3)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FirstComponent(tt.vecs)
			if diff := cmp.Diff(tt.want, got, approx); diff != "" {
				t.Errorf("FirstComponent (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFirstComponentDeterministic(t *testing.T) {
	vecs := make([][]float32, 500)
	for i := range vecs {
		v := make([]float32, 100)
		for j := range v {
			v[j] = float32(math.Sin(float64(i*101+j*7))) + 0.3
		}
		vecs[i] = v
	}
	first := FirstComponent(vecs)
	for range 3 {
		if diff := cmp.Diff(first, FirstComponent(vecs)); diff != "" {
			t.Fatalf("FirstComponent differs between calls (-first +again):\n%s", diff)
		}
	}
}

func TestRemoveComponent(t *testing.T) {
	s := float32(1 / math.Sqrt2)
	tests := []struct {
		name  string
		v, pc []float32
		want  []float32
	}{
		{"removes and renormalizes", []float32{s, s}, []float32{1, 0}, []float32{0, 1}},
		{"orthogonal vector only renormalized", []float32{0, 3}, []float32{1, 0}, []float32{0, 1}},
		{"parallel vector gives zero", []float32{-2, 0}, []float32{1, 0}, []float32{0, 0}},
		{"zero vector stays zero", []float32{0, 0}, []float32{1, 0}, []float32{0, 0}},
		{"nil component only normalizes", []float32{3, 4}, nil, []float32{0.6, 0.8}},
		{"mismatched component only normalizes", []float32{3, 4}, []float32{1, 0, 0}, []float32{0.6, 0.8}},
	}
	approx := cmpopts.EquateApprox(0, 1e-6)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := append([]float32(nil), tt.v...)
			got := RemoveComponent(v, tt.pc)
			if diff := cmp.Diff(tt.want, got, approx); diff != "" {
				t.Errorf("RemoveComponent (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.v, v); diff != "" {
				t.Errorf("RemoveComponent modified its argument (-before +after):\n%s", diff)
			}
		})
	}
}

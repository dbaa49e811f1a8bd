package pvec

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestEditMatchesSlice applies random writes, appends and truncations to
// copies of a Vec and to a plain slice, and checks after every step that
// the Vec equals the slice and that every Vec taken earlier still equals
// the slice it was taken from.
func TestEditMatchesSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var model []int
	v := Of(model)
	type taken struct {
		v    Vec[int]
		want []int
	}
	var history []taken
	for step := range 3000 {
		w := v.Edit()
		for range 1 + rng.IntN(4) {
			switch op := rng.IntN(10); {
			case op < 4 && len(model) > 0:
				i, x := rng.IntN(len(model)), rng.Int()
				*w.Mut(i) = x
				model[i] = x
			case op < 8:
				for range 1 + rng.IntN(3*chunkSize/2) {
					x := rng.Int()
					w.Append(x)
					model = append(model, x)
				}
			default:
				n := rng.IntN(len(model) + 1)
				w.Truncate(n)
				model = model[:n]
			}
			if w.Len() != len(model) {
				t.Fatalf("step %d: length %d, want %d", step, w.Len(), len(model))
			}
		}
		w.Done()
		v = w
		if step%50 == 0 {
			history = append(history, taken{v, slices.Clone(model)})
		}
		if got := v.Slice(); !slices.Equal(got, model) {
			t.Fatalf("step %d: Vec differs from the model (len %d vs %d)", step, len(got), len(model))
		}
	}
	for k, h := range history {
		if got := h.v.Slice(); !slices.Equal(got, h.want) {
			t.Fatalf("Vec %d changed after later edits", k)
		}
		for i, x := range h.v.All() {
			if *h.v.At(i) != x || h.want[i] != x {
				t.Fatalf("Vec %d: All and At disagree at %d", k, i)
			}
		}
	}
}

// TestMutGrows checks that Mut past the end grows the Vec with zeros.
func TestMutGrows(t *testing.T) {
	var v Vec[string]
	*v.Mut(2) = "c"
	v.Done()
	if got := v.Slice(); !slices.Equal(got, []string{"", "", "c"}) {
		t.Fatalf("got %q", got)
	}
}

func TestMisusePanics(t *testing.T) {
	ro := Of([]int{1})
	for name, f := range map[string]func(){
		"At past the end":     func() { ro.At(1) },
		"Mut of a read-only":  func() { ro.Mut(0) },
		"negative Mut":        func() { w := ro.Edit(); w.Mut(-1) },
		"negative Truncate":   func() { w := ro.Edit(); w.Truncate(-1) },
		"Append to read-only": func() { ro.Append(2) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}

// BenchmarkSetOne measures a one-element change of a 100,000-element Vec
// (what a 1-tool catalog change costs per per-tool array).
func BenchmarkSetOne(b *testing.B) {
	v := Of(make([]string, 100_000))
	for i := 0; b.Loop(); i++ {
		w := v.Edit()
		*w.Mut(i % 100_000) = "x"
		w.Done()
		v = w
	}
}

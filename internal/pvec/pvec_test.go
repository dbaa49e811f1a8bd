package pvec

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBuilderMatchesSlice applies random sets, appends and truncations to
// a Vec and to a plain slice, and checks after every step that the Vec
// equals the slice and that every Vec returned earlier still equals the
// slice it was taken from.
func TestBuilderMatchesSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var model []int
	v := Of(model)
	type taken struct {
		v    Vec[int]
		want []int
	}
	var history []taken
	for step := range 3000 {
		b := v.Edit()
		for range 1 + rng.IntN(4) {
			switch op := rng.IntN(10); {
			case op < 4 && len(model) > 0:
				i, x := rng.IntN(len(model)), rng.Int()
				b.Set(i, x)
				model[i] = x
			case op < 8:
				for range 1 + rng.IntN(3*chunkSize/2) {
					x := rng.Int()
					b.Append(x)
					model = append(model, x)
				}
			default:
				n := rng.IntN(len(model) + 1)
				b.Truncate(n)
				model = model[:n]
			}
			if b.Len() != len(model) {
				t.Fatalf("step %d: builder length %d, want %d", step, b.Len(), len(model))
			}
		}
		v = b.Vec()
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
			if h.v.At(i) != x || h.want[i] != x {
				t.Fatalf("Vec %d: All and At disagree at %d", k, i)
			}
		}
	}
}

// TestBuilderKeepsEditingAfterVec checks that a Vec taken from a builder
// does not change when the builder goes on.
func TestBuilderKeepsEditingAfterVec(t *testing.T) {
	b := Of([]string{"a", "b", "c"}).Edit()
	first := b.Vec()
	b.Set(1, "x")
	b.Append("d")
	b.Truncate(2)
	if got := first.Slice(); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("first Vec changed to %v", got)
	}
	if got := b.Vec().Slice(); !slices.Equal(got, []string{"a", "x"}) {
		t.Fatalf("builder has %v, want [a x]", got)
	}
}

func TestOutOfRangePanics(t *testing.T) {
	for name, f := range map[string]func(){
		"At":       func() { Of([]int{1}).At(1) },
		"Set":      func() { Of([]int{1}).Edit().Set(-1, 0) },
		"Truncate": func() { Of([]int{1}).Edit().Truncate(2) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s out of range did not panic", name)
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
		e := v.Edit()
		e.Set(i%100_000, "x")
		v = e.Vec()
	}
}

package fallback

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// topExpansions keeps what sorting every expansion and keeping k keeps,
// in the same order: on random weights with ties (many equal weights,
// told apart by term), NaN and infinite weights, for every k.
func TestTopExpansionsIsSortedPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 7))
	for n := range 60 {
		for trial := range 20 {
			ets := make([]expansion, n)
			for i, id := range rng.Perm(n) {
				w := float64(rng.IntN(1 + trial%8)) // few distinct weights: ties
				switch rng.IntN(20) {
				case 0:
					w = math.NaN()
				case 1:
					w = math.Inf(1)
				case 2:
					w = math.Inf(-1)
				case 3:
					w = rng.Float64()
				}
				ets[i] = expansion{id: int32(id), w: w}
			}
			for _, k := range []int{0, 1, 2, 5, prfTerms, n - 1, n, n + 1} {
				want := slices.Clone(ets)
				slices.SortFunc(want, expansionOrder)
				want = want[:max(0, min(k, n))]
				got := topExpansions(slices.Clone(ets), k)
				if diff := cmp.Diff(want, got, cmp.AllowUnexported(expansion{}), cmp.Comparer(func(a, b float64) bool {
					return a == b || math.IsNaN(a) && math.IsNaN(b)
				})); diff != "" {
					t.Fatalf("n %d, k %d (-sort +topExpansions):\n%s", n, k, diff)
				}
			}
		}
	}
}

package par

import (
	"sync/atomic"
	"testing"
)

// TestForCoversEachItemOnce checks that For's ranges cover [0, n) exactly
// once, for sizes around its thresholds.
func TestForCoversEachItemOnce(t *testing.T) {
	for _, n := range []int{0, 1, minChunk, 2*minChunk - 1, 2 * minChunk, 10_007} {
		seen := make([]atomic.Int32, n)
		For(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n=%d: item %d seen %d times", n, i, c)
			}
		}
	}
}

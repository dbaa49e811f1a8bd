package evaluation

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Fold(qs, 2, 0) is Split's even half, and the folds of any k hold every
// query once.
func TestFold(t *testing.T) {
	var qs []Query
	for i := range 40 {
		qs = append(qs, Query{ID: fmt.Sprintf("q%d", i)})
	}
	even, odd := Split(qs)
	in, rest := Fold(qs, 2, 0)
	if diff := cmp.Diff(even, in); diff != "" {
		t.Errorf("Fold(2, 0) is not Split's even half (-even +fold):\n%s", diff)
	}
	if diff := cmp.Diff(odd, rest); diff != "" {
		t.Errorf("Fold(2, 0)'s rest is not Split's odd half (-odd +rest):\n%s", diff)
	}
	for _, k := range []int{3, 8} {
		seen := map[string]int{}
		for f := range k {
			in, rest := Fold(qs, k, f)
			if len(in)+len(rest) != len(qs) {
				t.Errorf("Fold(%d, %d): %d + %d queries of %d", k, f, len(in), len(rest), len(qs))
			}
			for _, q := range in {
				seen[q.ID]++
			}
		}
		for _, q := range qs {
			if seen[q.ID] != 1 {
				t.Errorf("k = %d: %s is in %d folds, want 1", k, q.ID, seen[q.ID])
			}
		}
	}
}

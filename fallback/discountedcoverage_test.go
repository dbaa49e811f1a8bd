package fallback

import (
	"math"
	"testing"
)

// TestDiscountedCoverage: Result.Tally gives the unknown words Coverage
// counts, with their weights, and Discounted recomputes Coverage (or
// WhenCoverage) with some of them at a share of their weight.
func TestDiscountedCoverage(t *testing.T) {
	ix := NewIndex(testDocs)
	res := ix.Keyword(mustParse(t, "send zorblax messages about qux today"), Options{Limit: 5})
	var words []string
	for _, u := range res.Tally.Unknown {
		words = append(words, u.Word)
		if u.When != (u.Word == "today") {
			t.Errorf("%q: When = %v", u.Word, u.When)
		}
	}
	if len(words) != 3 || words[0] != "zorblax" || words[1] != "qux" || words[2] != "today" {
		t.Fatalf("Unknown() words = %v, want zorblax qux today", words)
	}
	if math.Abs(res.Coverage-2.0/5) > 1e-9 || math.Abs(res.WhenCoverage-2.0/4) > 1e-9 {
		t.Fatalf("Coverage %.3f, WhenCoverage %.3f; want 0.4, 0.5", res.Coverage, res.WhenCoverage)
	}
	notZorblax := func(u UnknownWord) bool { return u.Word != "zorblax" }
	for _, c := range []struct {
		when  bool
		share float64
		want  float64
	}{
		{false, 0.5, 2 / (5 - 0.5 - 0.5)}, // qux and today at half
		{true, 0.5, 2 / (4 - 0.5)},        // today is left out already
		{false, 0, 2.0 / 3},
	} {
		got, ok := res.Tally.Discounted(c.when, c.share, notZorblax)
		if !ok || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Discounted(%v, %v) = %.3f, %v; want %.3f", c.when, c.share, got, ok, c.want)
		}
	}
	if _, ok := res.Tally.Discounted(false, 0.5, func(UnknownWord) bool { return false }); ok {
		t.Error("Discounted with no word discounted: ok")
	}
}

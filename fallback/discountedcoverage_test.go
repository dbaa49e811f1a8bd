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

// TestCoverageHedges: a hedge the catalog does not know ("anywhere",
// "decent", "enough": hedges) weighs fillerWeight in Result.Coverage, as
// filler does, and in full in WordCoverage; a hedge that says when
// ("still") is left out of WhenCoverage at the weight it was counted
// with, so no coverage exceeds 1.
func TestCoverageHedges(t *testing.T) {
	ix := NewIndex(testDocs)
	for _, c := range []struct {
		q                         string
		coverage, when, everyWord float64 // Coverage, WhenCoverage, WordCoverage
	}{
		{"send zorblax messages", 2.0 / 3, 2.0 / 3, 2.0 / 3},
		{"send decent zorblax messages", 2 / 3.1, 2 / 3.1, 2.0 / 4},
		{"send messages anywhere enough", 2 / 2.2, 2 / 2.2, 2.0 / 4},
		{"send messages still", 2 / 2.1, 1, 2.0 / 3},
	} {
		res := ix.Keyword(mustParse(t, c.q), Options{Limit: 5})
		if math.Abs(res.Coverage-c.coverage) > 1e-9 || math.Abs(res.WhenCoverage-c.when) > 1e-9 || math.Abs(res.WordCoverage-c.everyWord) > 1e-9 {
			t.Errorf("%q: Coverage %.3f, WhenCoverage %.3f, WordCoverage %.3f; want %.3f, %.3f, %.3f",
				c.q, res.Coverage, res.WhenCoverage, res.WordCoverage, c.coverage, c.when, c.everyWord)
		}
	}
}

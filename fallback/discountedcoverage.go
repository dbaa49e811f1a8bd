package fallback

// UnknownWord is a ranking word that Result.Coverage counts as unknown:
// the catalog does not know it, and it is no argument value left out. A
// plain value, safe to copy.
type UnknownWord struct {
	// Word is the word as analysis.Words gives it.
	Word string
	// Weight is the weight it counts in Coverage's whole (a name in no
	// locative place at otherNameWeight of its query-side weight).
	Weight float64
	// When: the word says when (saysWhen) and WhenCoverage leaves it out.
	When bool
}

// CoverageTally is what Result.Coverage and Result.WhenCoverage are
// computed from: Coverage is Known / Weight, WhenCoverage Known / (Weight
// − When). The zero value has no words. A value whose Unknown each search
// allocates afresh (nothing reuses it): safe to copy and for concurrent
// reads; Discounted only reads it.
type CoverageTally struct {
	// Known is the weight of the words the catalog knows (or understands:
	// a value of a kind it knows, a verb said otherwise).
	Known float64
	// Weight is the weight of every word Coverage counts.
	Weight float64
	// When is the weight of the unknown words that say when.
	When float64
	// Unknown are the words counted in Weight and not in Known, in query
	// order.
	Unknown []UnknownWord
}

// tally returns the plan's CoverageTally; none without coverage.
func (p *plan) tally(none bool) CoverageTally {
	if none {
		return CoverageTally{}
	}
	return CoverageTally{Known: p.known, Weight: p.weight, When: p.when, Unknown: p.unknown}
}

// Discounted returns Result.Coverage, or Result.WhenCoverage with when,
// with each unknown word for which discount reports true counted at share
// of its weight; ok is false when there is no such word (the caller has
// the coverage then).
func (t *CoverageTally) Discounted(when bool, share float64, discount func(UnknownWord) bool) (coverage float64, ok bool) {
	whole := coverageWhole(t.Weight, t.When, when)
	cut := 0.0
	for _, u := range t.Unknown {
		if when && u.When {
			continue // left out already
		}
		if discount(u) {
			cut += (1 - share) * u.Weight
		}
	}
	if cut == 0 || whole-cut <= 0 {
		return 0, false
	}
	return t.Known / (whole - cut), true
}

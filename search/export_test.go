package search

import (
	"slices"

	"github.com/toolsearch/toolsearch/embed"
)

// LearnedScreens returns a function that runs e's learned screen alone
// (vectorsAbove, as a search with learning does) for the query vector of
// the i-th of texts, which must be in e's query cache, and returns the
// learned vectors it lets through: for BenchmarkLearnedSearch/screen. It
// reads the index of one scope.
func LearnedScreens(e *Engine, texts []string) func(i int) int {
	ixs := e.learner.index.Load()
	var ix *learnedIndex
	for _, x := range ixs.byScope {
		ix = x
	}
	var pvs [][]float32
	for _, t := range texts {
		raw, _ := e.queries.get(t)
		qv := slices.Clone(raw)
		embed.Normalize(qv)
		pv := slices.Clone(project(qv, ix.pc))
		embed.Normalize(pv)
		pvs = append(pvs, pv)
	}
	return func(i int) int {
		n := 0
		ix.screen.vectorsAbove(pvs[i], func(_ int, ks []int) { n += len(ks) })
		return n
	}
}

// IDRefsOf returns idRefsOf(raw) as "noun/id" or "noun/number": for
// TestIdentifier.
func IDRefsOf(raw string) []string {
	var out []string
	for _, r := range idRefsOf(raw) {
		kind := "id"
		if r.number {
			kind = "number"
		}
		out = append(out, r.noun+"/"+kind)
	}
	return out
}

// NegatedVerbs returns negatedVerbs(raw): for TestNegatedVerbs.
func NegatedVerbs(raw string) []string { return negatedVerbs(raw) }

// ActedPathKinds returns actedPathKinds(raw): for TestFileOfRepository.
func ActedPathKinds(raw string) []string { return actedPathKinds(raw) }

package fallback

import (
	"slices"

	"github.com/toolsearch/toolsearch/analysis"
)

// Terms returns the ranking terms of text — what keyword search matches
// it on (analysis.Standard: split, lowercased, stop words removed,
// stemmed) — sorted and without duplicates. Safe for concurrent use.
func Terms(text string) []string {
	terms := analysis.Standard().Analyze(text)
	slices.Sort(terms)
	return slices.Compact(terms)
}

package query

import "github.com/toolsearch/toolsearch/analysis"

// HasWords reports whether q has anything to rank by: a ranking term
// (RankingText) that the analysis pipeline keeps — not only stop words
// ("a", "the a of") or punctuation ("???", "+"). Filters and select: are
// not words; a caller answers a query without words and without them as
// it answers a query that matches nothing.
func (q Query) HasWords() bool {
	for _, t := range q.Terms {
		if !t.Excluded && len(analysis.Standard().Analyze(t.Text)) > 0 {
			return true
		}
	}
	return false
}

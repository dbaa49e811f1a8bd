package fallback

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/analysis"
	"github.com/toolsearch/toolsearch/query"
)

// fuzzyPenalty scales the scores of fuzzy hits: a result found by guessing
// what the user meant is less certain than the same result found by the
// words as typed. Example: a corrected query whose keyword score is 0.9
// reports 0.9 × 0.8 = 0.72.
const fuzzyPenalty = 0.8

// maxEdits is the largest edit distance (insertions, deletions,
// substitutions and adjacent transpositions) at which a word of n runes is
// corrected: none below 4 runes ("get" must not become "set"), 1 up to 7
// ("wether" → "weather"), 2 from 8 ("recieveing" → "receiving").
func maxEdits(n int) int {
	switch {
	case n < 4:
		return 0
	case n < 8:
		return 1
	}
	return 2
}

// Fuzzy tolerates typos. It corrects every query word that is not in the
// catalog's vocabulary to the nearest vocabulary word (smallest edit
// distance within maxEdits, then the word used by the most tools, then
// alphabetical), and runs Keyword with the corrected query, scores scaled by
// fuzzyPenalty. A query that is a whole tool name with a typo
// ("get_wether", "getwether") also ranks that tool first, with score
// fuzzyPenalty.
//
// The suggestion is the corrected query in the query syntax (e.g. "weather"
// for "wether"), or the tool name when the whole query was a misspelt name,
// or "" when nothing was corrected — then the Result is empty too, and the
// caller keeps its keyword result.
func (ix *Index) Fuzzy(q query.Query, o Options) (Result, string) {
	if ix == nil || ix.Len() == 0 {
		return Result{}, ""
	}
	nameHit, hasName := ix.fuzzyName(q, o)

	corrected := q
	corrected.Terms = nil
	changed := false
	words := analysis.Words()
	for _, t := range q.Terms {
		ws := words.Analyze(t.Text)
		fixed := false
		for i, w := range ws {
			if _, known := ix.wordTerm.get(w); known || len(analysis.Standard().Analyze(w)) == 0 {
				continue
			}
			if c, ok := ix.correct(w); ok {
				ws[i], fixed = c, true
			}
		}
		if fixed {
			changed = true
			t.Text = strings.Join(ws, " ")
		}
		corrected.Terms = append(corrected.Terms, t)
	}
	if !changed && !hasName {
		return Result{}, ""
	}
	var res Result
	if changed {
		corrected.Raw = corrected.String()
		res = ix.Keyword(corrected, o)
		for i := range res.Hits {
			res.Hits[i].Score *= fuzzyPenalty
			if o.Explain {
				res.Hits[i].Explain = "fuzzy " + corrected.Raw + ": " + res.Hits[i].Explain
			}
		}
	}
	suggestion := corrected.Raw
	if hasName {
		suggestion = ix.name(nameHit)
		i := slices.IndexFunc(res.Hits, func(h Hit) bool { return h.ID == nameHit })
		if i < 0 {
			res.Total++
		} else {
			res.Hits = slices.Delete(res.Hits, i, i+1)
		}
		h := Hit{ID: nameHit, Score: fuzzyPenalty}
		if o.Explain {
			h.Explain = "fuzzy name match"
		}
		res.Hits = slices.Insert(res.Hits, 0, h)
		if o.Limit > 0 && len(res.Hits) > o.Limit {
			res.Hits = res.Hits[:o.Limit]
		}
	}
	return res, suggestion
}

// fuzzyName finds the tool whose name is nearest to a one-word query, within
// maxEdits of the separator-free lowercase names ("getwether" ~ "get_weather"),
// walking the sorted name keys (withinEdits), not every name.
func (ix *Index) fuzzyName(q query.Query, o Options) (int, bool) {
	if len(q.Terms) != 1 || q.Terms[0].Required || q.Terms[0].Excluded {
		return 0, false
	}
	key := nameKey(q.Terms[0].Text)
	k := maxEdits(utf8.RuneCountInString(key))
	if k == 0 {
		return 0, false
	}
	best, bestDist := -1, k+1
	nk := ix.fuzzyNameKeys()
	withinEdits(&sliceCursor{ss: nk.keys}, key, k, func(s string, d int) bool {
		for _, id32 := range nk.tools(s) {
			id := int(id32)
			if !o.allowed(id) || !ix.inScope(&q, id) {
				continue
			}
			if d < bestDist || d == bestDist && best >= 0 && ix.name(id) < ix.name(best) {
				best, bestDist = id, d
			}
		}
		return true
	})
	return best, best >= 0 && bestDist > 0
}

// correct returns the vocabulary word nearest to w, if one is within
// maxEdits, walking the vocabulary's words of each length within reach
// (withinEdits), not all of them.
func (ix *Index) correct(w string) (string, bool) {
	n := utf8.RuneCountInString(w)
	k := maxEdits(n)
	if k == 0 {
		return "", false
	}
	best, bestDist := "", k+1
	for l := max(0, n-k); l <= n+k && l < len(ix.wordsByLen); l++ {
		withinEdits(&slistCursor{l: &ix.wordsByLen[l]}, w, k, func(v string, d int) bool {
			if d > bestDist {
				return true
			}
			dv, _ := ix.wordDF.get(v)
			db, _ := ix.wordDF.get(best)
			if d < bestDist || dv > db || dv == db && v < best {
				best, bestDist = v, d
			}
			return true
		})
	}
	return best, best != ""
}

// editDistance returns the optimal-string-alignment distance between a and b
// (insertions, deletions, substitutions, adjacent transpositions, over
// runes), or any value > k once it is certain to exceed k.
func editDistance(a, b string, k int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > k || -d > k {
		return k + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > k {
			return k + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

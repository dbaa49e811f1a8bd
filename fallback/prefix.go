package fallback

import (
	"slices"
	"strings"
)

// prefixWeight is the weight of a completion of the query's last word
// relative to the word itself: "send sla" also matches "slack", at 0.5 of
// the weight a literal "slack" would have.
const prefixWeight = 0.5

// maxPrefixExpansions caps the completions of the last word, shortest
// first: "re" in a large catalog would otherwise expand to hundreds of words.
// Example: with 16, "sla" expands to at most 16 words such as "slack",
// "slash", "slate".
const maxPrefixExpansions = 16

// minPrefixLen is the shortest last word that is expanded as a prefix
// (in bytes): "s" or "se" would match most of the catalog.
const minPrefixLen = 3

// completions returns the term IDs of up to maxPrefixExpansions vocabulary
// words that start with w (w itself excluded), shortest first.
func (ix *Index) completions(w string) []int32 {
	if len(w) < minPrefixLen {
		return nil
	}
	var cands []string
	for v := range ix.words.from(w) {
		if !strings.HasPrefix(v, w) {
			break
		}
		if v != w {
			cands = append(cands, v)
		}
	}
	slices.SortStableFunc(cands, func(a, b string) int { return len(a) - len(b) })
	var ids []int32
	seen := map[int32]bool{}
	for _, c := range cands {
		if len(ids) == maxPrefixExpansions {
			break
		}
		if t, _ := ix.wordTerm.get(c); t >= 0 && !seen[t] {
			seen[t] = true
			ids = append(ids, t)
		}
	}
	return ids
}

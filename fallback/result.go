package fallback

import (
	"cmp"
	"slices"
)

// Hit is one matching tool.
type Hit struct {
	// ID is the tool's position in the slice given to NewIndex.
	ID int
	// Score is in [0, 1], higher is better; see each mode for its meaning.
	Score float64
	// Explain says, for debugging, which fields and terms matched and how
	// the score was computed. Its format is for humans and may change. It
	// is filled only when the search's Options.Explain is set, and is ""
	// otherwise.
	Explain string
}

// Options restrict and cut a search. The zero value means: every tool, no
// limit.
type Options struct {
	// Limit is the maximum number of hits returned; 0 or less means no
	// limit. Select ignores it.
	Limit int
	// Allow, when non-nil, reports whether a tool may appear in results
	// (scoping). It is applied before limiting and counting, so Total never
	// counts a tool the caller may not see. It must be safe to call from the
	// searching goroutine; it is never retained.
	Allow func(id int) bool
	// Explain asks for Hit.Explain to be filled (debug requests). Building
	// explanations costs a string per hit, so it is off by default: with
	// false, every Hit.Explain is "". Rankings and scores do not depend on
	// it.
	Explain bool
}

func (o Options) allowed(id int) bool { return o.Allow == nil || o.Allow(id) }

// Result is the answer of a search.
type Result struct {
	// Hits are sorted by Score descending, then by tool name ascending.
	Hits []Hit
	// Total is the number of matching (and allowed) tools before Limit.
	Total int
	// Scanned is set by Regex when the pattern has no literal of 3 bytes
	// that every match contains, so the trigram index could not narrow the
	// search and every tool was matched (see trigram.go): a caller counts
	// these, e.g. as a metric, to see how often regex mode is slow.
	Scanned bool
	// Unmatched lists the query words that occur nowhere in the catalog
	// (keyword mode only), in query order; a caller may try Fuzzy for them.
	Unmatched []string
	// Coverage is the share of the query's ranking words (not stop words,
	// not -terms) that occur in the catalog, each word weighed by its
	// query-side weight (queryWordWeight): 1 when every word is known, 0.4
	// when "turn off the living room lights" meets a catalog that knows only
	// "lights" and "turn". Words of an argument value by its form (a term
	// with a digit or an inner @ / . : # _: a path, a URL, a #channel, an
	// issue key) that the catalog does not know are left out: "rename
	// report.txt to final.txt" has coverage 1 when "rename" is known, since
	// no catalog is expected to know the file. It is 1 for a query with no
	// ranking words. Set by Keyword.
	Coverage float64
	// WordCoverage is Coverage with every ranking word counted, argument
	// values too: the share of the query's words the index knows. The
	// learned stage of package search weighs a request's match with a
	// tool's learned queries by it (an index of learned queries knows few
	// paths, and a long request with paths would otherwise match learned
	// text better than it does). Set by Keyword.
	WordCoverage float64
}

// candidate is a scored tool before ranking; raw is the mode's internal
// score (higher is better), used for ordering.
type candidate struct {
	id  int
	raw float64
}

// ranker orders candidates: raw score descending, then tool name ascending.
type ranker struct {
	ix *Index
}

func (r ranker) less(a, b candidate) bool { // a ranks before b
	if a.raw != b.raw {
		return a.raw > b.raw
	}
	return r.ix.name(a.id) < r.ix.name(b.id)
}

// top returns the best limit candidates in rank order (all when limit <= 0).
// It may reorder cs.
func (r ranker) top(cs []candidate, limit int) []candidate {
	if limit <= 0 || limit >= len(cs) {
		slices.SortFunc(cs, func(a, b candidate) int {
			if r.less(a, b) {
				return -1
			}
			if r.less(b, a) {
				return 1
			}
			return cmp.Compare(a.id, b.id)
		})
		return cs
	}
	// A heap of the best limit candidates seen, the worst-ranked at the
	// root (the algorithm of container/heap, without boxing candidates).
	h := minHeap{r: r, cs: make([]candidate, 0, limit)}
	for _, c := range cs {
		if len(h.cs) < limit {
			h.push(c)
		} else if r.less(c, h.cs[0]) {
			h.cs[0] = c
			h.fix(0)
		}
	}
	out := make([]candidate, len(h.cs))
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = h.pop()
	}
	return out
}

// minHeap keeps the worst-ranked kept candidate at the root. Its methods
// are container/heap's Push, Fix and Pop, specialized.
type minHeap struct {
	r  ranker
	cs []candidate
}

// less reports whether cs[i] ranks below cs[j].
func (h *minHeap) less(i, j int) bool { return h.r.less(h.cs[j], h.cs[i]) }

func (h *minHeap) push(c candidate) {
	h.cs = append(h.cs, c)
	h.up(len(h.cs) - 1)
}

func (h *minHeap) pop() candidate {
	n := len(h.cs) - 1
	h.cs[0], h.cs[n] = h.cs[n], h.cs[0]
	h.down(0, n)
	c := h.cs[n]
	h.cs = h.cs[:n]
	return c
}

func (h *minHeap) fix(i int) {
	if !h.down(i, len(h.cs)) {
		h.up(i)
	}
}

func (h *minHeap) up(j int) {
	for {
		i := (j - 1) / 2 // parent
		if i == j || !h.less(j, i) {
			break
		}
		h.cs[i], h.cs[j] = h.cs[j], h.cs[i]
		j = i
	}
}

func (h *minHeap) down(i0, n int) bool {
	i := i0
	for {
		j1 := 2*i + 1
		if j1 >= n || j1 < 0 { // j1 < 0 after int overflow
			break
		}
		j := j1 // left child
		if j2 := j1 + 1; j2 < n && h.less(j2, j1) {
			j = j2 // = 2*i + 2  // right child
		}
		if !h.less(j, i) {
			break
		}
		h.cs[i], h.cs[j] = h.cs[j], h.cs[i]
		i = j
	}
	return i > i0
}

package fallback

import (
	"cmp"
	"container/heap"
	"slices"
)

// Hit is one matching tool.
type Hit struct {
	// ID is the tool's position in the slice given to NewIndex.
	ID int
	// Score is in [0, 1], higher is better; see each mode for its meaning.
	Score float64
	// Explain says, for debugging, which fields and terms matched and how
	// the score was computed. Its format is for humans and may change.
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
}

func (o Options) allowed(id int) bool { return o.Allow == nil || o.Allow(id) }

// Result is the answer of a search.
type Result struct {
	// Hits are sorted by Score descending, then by tool name ascending.
	Hits []Hit
	// Total is the number of matching (and allowed) tools before Limit.
	Total int
	// Unmatched lists the query words that occur nowhere in the catalog
	// (keyword mode only), in query order; a caller may try Fuzzy for them.
	Unmatched []string
}

// candidate is a scored tool before ranking; raw is the mode's internal
// score (higher is better), used for ordering.
type candidate struct {
	id  int
	raw float64
}

// ranker orders candidates: raw score descending, then tool name ascending.
type ranker struct {
	names []string
}

func (r ranker) less(a, b candidate) bool { // a ranks before b
	if a.raw != b.raw {
		return a.raw > b.raw
	}
	return r.names[a.id] < r.names[b.id]
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
	h := &minHeap{r: r, cs: make([]candidate, 0, limit)}
	for _, c := range cs {
		if len(h.cs) < limit {
			heap.Push(h, c)
		} else if r.less(c, h.cs[0]) {
			h.cs[0] = c
			heap.Fix(h, 0)
		}
	}
	out := make([]candidate, len(h.cs))
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(candidate)
	}
	return out
}

// minHeap keeps the worst-ranked kept candidate at the root.
type minHeap struct {
	r  ranker
	cs []candidate
}

func (h *minHeap) Len() int           { return len(h.cs) }
func (h *minHeap) Less(i, j int) bool { return h.r.less(h.cs[j], h.cs[i]) }
func (h *minHeap) Swap(i, j int)      { h.cs[i], h.cs[j] = h.cs[j], h.cs[i] }
func (h *minHeap) Push(x any)         { h.cs = append(h.cs, x.(candidate)) }
func (h *minHeap) Pop() any {
	c := h.cs[len(h.cs)-1]
	h.cs = h.cs[:len(h.cs)-1]
	return c
}

package vectorindex

import (
	"cmp"
	"slices"
)

// cand is a graph node and its similarity to the current query.
type cand struct {
	sim  float32
	slot int32
}

// sortCands sorts most similar first, ties by slot for determinism.
func sortCands(cs []cand) {
	slices.SortFunc(cs, func(a, b cand) int {
		if c := cmp.Compare(b.sim, a.sim); c != 0 {
			return c
		}
		return cmp.Compare(a.slot, b.slot)
	})
}

// bestHeap is a binary heap of candidates, the most similar on top: the
// beam's frontier. worstHeap has the least similar on top: the beam's
// results, whose top is the one to drop. Two types instead of one with a
// flag keep the comparison free of a branch (the heaps were 17 % of the
// build's CPU).
type (
	bestHeap  []cand
	worstHeap []cand
)

func (h *bestHeap) push(x cand) {
	c := append(*h, x)
	for i := len(c) - 1; i > 0; {
		p := (i - 1) / 2
		if c[i].sim <= c[p].sim {
			break
		}
		c[i], c[p] = c[p], c[i]
		i = p
	}
	*h = c
}

func (h *bestHeap) pop() cand {
	c := *h
	top := c[0]
	last := len(c) - 1
	c[0] = c[last]
	c = c[:last]
	for i := 0; ; {
		l, w := 2*i+1, i
		if l < last && c[l].sim > c[w].sim {
			w = l
		}
		if l+1 < last && c[l+1].sim > c[w].sim {
			w = l + 1
		}
		if w == i {
			break
		}
		c[i], c[w] = c[w], c[i]
		i = w
	}
	*h = c
	return top
}

func (h *worstHeap) push(x cand) {
	c := append(*h, x)
	for i := len(c) - 1; i > 0; {
		p := (i - 1) / 2
		if c[i].sim >= c[p].sim {
			break
		}
		c[i], c[p] = c[p], c[i]
		i = p
	}
	*h = c
}

// offer keeps x among the n most similar: pushed while fewer are held,
// else it replaces the least similar if it is more similar.
func (h *worstHeap) offer(x cand, n int) {
	c := *h
	if len(c) < n {
		h.push(x)
		return
	}
	if x.sim <= c[0].sim {
		return
	}
	c[0] = x
	for i, last := 0, len(c); ; {
		l, w := 2*i+1, i
		if l < last && c[l].sim < c[w].sim {
			w = l
		}
		if l+1 < last && c[l+1].sim < c[w].sim {
			w = l + 1
		}
		if w == i {
			break
		}
		c[i], c[w] = c[w], c[i]
		i = w
	}
}

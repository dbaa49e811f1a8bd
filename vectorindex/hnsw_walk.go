package vectorindex

// Walking the graph: the greedy descent through the upper layers and the
// beam search of a layer, shared by searches and by the build.

// greedy walks layer l from ep to a local maximum of similarity to q.
func (ix *HNSW) greedy(q *point, ep cand, l int) cand {
	for changed := true; changed; {
		changed = false
		for _, n := range ix.links[ep.slot][l] {
			if s := ix.sim(q, n); s > ep.sim {
				ep, changed = cand{sim: s, slot: n}, true
			}
		}
	}
	return ep
}

// walk says which nodes a beam search collects; every node is traversed
// whatever it says, so a filter never cuts the graph apart.
type walk struct {
	// live: collect only live nodes (tombstones route but are not returned);
	// false while building, where every node is a candidate neighbour.
	live bool
	// keep, when not nil, collects only nodes whose IDs it holds.
	keep *IDSet
}

// walkAll collects every node: the build's searches.
var walkAll = walk{}

// collects reports whether the walk w returns slot s.
func (ix *HNSW) collects(w walk, s int32) bool {
	if !w.live {
		return true
	}
	return !ix.deleted[s] && (w.keep == nil || w.keep.Has(ix.ids[s]))
}

// searchLayer is the beam search of layer l from ep (Algorithm 2): it
// returns up to ef nodes most similar to q among those w collects,
// unordered. Nodes w does not collect are still traversed and expanded
// while they are within the beam (better than the worst collected node, or
// any while fewer than ef are collected), so a filter that keeps few nodes
// widens the walk instead of ending it early.
func (ix *HNSW) searchLayer(q *point, ep cand, ef, l int, w walk, vs *visitSet) []cand {
	res, _ := ix.walkLayer(q, ep, ef, l, w, vs, false)
	return res
}

// walkLayer is searchLayer that, with near set, also counts how many of the
// ef most similar nodes it visited, collected or not (the query's own
// neighbourhood), it collects: a filtered search's local selectivity.
func (ix *HNSW) walkLayer(q *point, ep cand, ef, l int, w walk, vs *visitSet, near bool) ([]cand, int) {
	vs.reset(len(ix.ids))
	vs.visit(ep.slot)
	cands := bestHeap(vs.cands[:0])
	res := make(worstHeap, 0, ef+1)
	var hood worstHeap // with near: the ef best visited, worst on top
	cands.push(ep)
	if ix.collects(w, ep.slot) {
		res.push(ep)
	}
	if near {
		hood.offer(ep, ef)
	}
	for len(cands) > 0 {
		c := cands.pop()
		if len(res) >= ef && c.sim < res[0].sim {
			break
		}
		for _, n := range ix.links[c.slot][l] {
			if !vs.visit(n) {
				continue
			}
			sim := ix.sim(q, n)
			if near {
				hood.offer(cand{sim: sim, slot: n}, ef)
			}
			if len(res) < ef || sim > res[0].sim {
				cands.push(cand{sim: sim, slot: n})
				if ix.collects(w, n) {
					res.offer(cand{sim: sim, slot: n}, ef)
				}
			}
		}
	}
	vs.cands = cands[:0]
	kept := 0
	for _, c := range hood {
		if ix.collects(w, c.slot) {
			kept++
		}
	}
	return res, kept
}

func (ix *HNSW) visitSet() *visitSet {
	if v, ok := ix.visits.Get().(*visitSet); ok {
		return v
	}
	return &visitSet{}
}

// visitSet marks visited slots with an epoch number, so clearing it between
// searches is O(1).
type visitSet struct {
	marks []uint32
	epoch uint32
	// cands is the frontier heap's storage, reused by the next search.
	cands []cand
}

func (v *visitSet) reset(n int) {
	if len(v.marks) < n {
		v.marks = make([]uint32, n+n/4)
		v.epoch = 0
	}
	v.epoch++
	if v.epoch == 0 { // wrapped: stale marks could alias the new epoch
		clear(v.marks)
		v.epoch = 1
	}
}

// visit marks s and reports whether it was unvisited.
func (v *visitSet) visit(s int32) bool {
	if v.marks[s] == v.epoch {
		return false
	}
	v.marks[s] = v.epoch
	return true
}

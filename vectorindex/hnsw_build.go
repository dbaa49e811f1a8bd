package vectorindex

import (
	"math"
	"runtime"
	"sync"
)

// Building the graph: linking new nodes (in parallel batches), drawing
// their levels, choosing their neighbours, compacting tombstones away.

// link links the slots from first on into the graph, or, when the index
// has no graph yet, builds it once the live vectors exceed ExactLimit.
func (ix *HNSW) link(first int32) {
	if ix.entry >= 0 {
		ix.insertBatch(slotRange(first, int32(len(ix.ids))))
		return
	}
	if len(ix.slot) <= ix.cfg.ExactLimit {
		return
	}
	var live []int32
	for s := range int32(len(ix.ids)) {
		if !ix.deleted[s] {
			live = append(live, s)
		}
	}
	ix.insertBatch(live)
}

func slotRange(from, to int32) []int32 {
	out := make([]int32, 0, to-from)
	for s := from; s < to; s++ {
		out = append(out, s)
	}
	return out
}

// maybeCompact rebuilds the graph from the live vectors once tombstones
// exceed compactFraction of the nodes. Live vectors are re-inserted in slot
// (insertion) order with a reseeded generator, so the result is
// deterministic.
func (ix *HNSW) maybeCompact() {
	if float64(ix.nDeleted) <= compactFraction*float64(len(ix.ids)) {
		return
	}
	old := &HNSW{dim: ix.dim, cfg: ix.cfg, ids: ix.ids, vecs: ix.vecs, codes: ix.codes, scales: ix.scales, deleted: ix.deleted}
	ix.reset()
	for s, id := range old.ids {
		if !old.deleted[s] {
			ix.appendFrom(old, int32(s), id)
		}
	}
	ix.link(0)
}

// randomLevel draws a node's top layer: P(level ≥ l) = M^-l.
func (ix *HNSW) randomLevel() int {
	ix.draws++
	l := int(-math.Log(1-ix.rng.Float64()) * ix.ml)
	return min(l, maxLevel)
}

// Parallel insertion. A batch is linked in groups of insertGroup slots: the
// candidate neighbours of every slot of a group are searched in the graph
// as it stood before the group, in parallel (the search is most of an
// insert's cost), then the group's slots are linked one by one, in order,
// each also considering the group's earlier slots as candidates (scored
// exactly). The result depends only on the batch, not on the number of
// cores or on scheduling. The first sequentialBelow nodes of a graph are
// inserted one by one, as the paper does, while the graph is too small for
// a group to be a small part of it.
const (
	// insertGroup: 128 slots per group keep two cores busy (a group is
	// ~10 ms of searching at 100k) while each slot still sees all but at
	// most 127 of the nodes before it through the graph, and those 127
	// exactly.
	insertGroup     = 128
	sequentialBelow = 1024
)

// insertBatch links slots (stored, not yet linked, in slot order) into the
// graph. A slot tombstoned before it was linked (an ID replaced within one
// batch) is linked anyway: it routes searches like any tombstone.
func (ix *HNSW) insertBatch(slots []int32) {
	levels := make([]int, len(slots))
	for i := range slots {
		levels[i] = ix.randomLevel()
	}
	i := 0
	for ; i < len(slots) && ix.linked < sequentialBelow; i++ {
		vs := ix.visitSet()
		q := ix.point(slots[i])
		ix.linkSlot(slots[i], levels[i], ix.plan(&q, levels[i], vs), nil, nil)
		ix.visits.Put(vs)
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	plans := make([][][]cand, insertGroup)
	for ; i < len(slots); i += insertGroup {
		group, glevels := slots[i:min(i+insertGroup, len(slots))], levels[i:min(i+insertGroup, len(slots))]
		var wg sync.WaitGroup
		for w := range min(workers, len(group)) {
			wg.Go(func() {
				vs := ix.visitSet()
				for j := w; j < len(group); j += workers {
					q := ix.point(group[j])
					plans[j] = ix.plan(&q, glevels[j], vs)
				}
				ix.visits.Put(vs)
			})
		}
		wg.Wait()
		for j, s := range group {
			ix.linkSlot(s, glevels[j], plans[j], group[:j], glevels[:j])
			plans[j] = nil
		}
	}
}

// plan searches the graph for the candidate neighbours of a new node with
// vector q and the given level (Algorithm 1 of the paper, without linking):
// plan[l] holds the EfConstruction nearest nodes found on layer l, best
// first, for every layer the node and the graph share; nil for an empty
// graph. It only reads the graph, so plans run in parallel.
func (ix *HNSW) plan(q *point, level int, vs *visitSet) [][]cand {
	if ix.entry < 0 {
		return nil
	}
	ep := cand{sim: ix.sim(q, ix.entry), slot: ix.entry}
	for l := ix.top; l > level; l-- {
		ep = ix.greedy(q, ep, l)
	}
	out := make([][]cand, min(level, ix.top)+1)
	for l := min(level, ix.top); l >= 0; l-- {
		found := ix.searchLayer(q, ep, ix.cfg.EfConstruction, l, walkAll, vs)
		sortCands(found)
		ep = found[0]
		out[l] = found
	}
	return out
}

// linkSlot links slot s, of the given level, into the graph: on each layer
// it picks neighbours among plan[l] and the earlier slots of its group
// (prev, with levels prevLevels) that reach that layer, with the selection
// heuristic, and links them both ways.
func (ix *HNSW) linkSlot(s int32, level int, plan [][]cand, prev []int32, prevLevels []int) {
	ix.links[s] = make([][]int32, level+1)
	ix.linked++
	if ix.entry < 0 {
		ix.entry, ix.top = s, level
		return
	}
	q := ix.point(s)
	for l := min(level, ix.top); l >= 0; l-- {
		cs := ix.candBuf[:0]
		if l < len(plan) {
			cs = append(cs, plan[l]...)
		}
		extra := false
		for j, p := range prev {
			if prevLevels[j] >= l {
				cs = append(cs, cand{sim: ix.sim(&q, p), slot: p})
				extra = true
			}
		}
		if extra {
			sortCands(cs)
		}
		ix.candBuf = cs
		if len(cs) == 0 {
			continue
		}
		// Copy: connect reuses selBuf, which selectNeighbors returns.
		nb := append(ix.nbBuf[:0], ix.selectNeighbors(cs, ix.cfg.M)...)
		ix.nbBuf = nb
		links := make([]int32, len(nb), ix.maxLinks(l)+1)
		for i, c := range nb {
			links[i] = c.slot
		}
		ix.links[s][l] = links
		for _, c := range nb {
			ix.connect(c.slot, s, c.sim, l)
		}
	}
	if level > ix.top {
		ix.entry, ix.top = s, level
	}
}

// connect adds the link n → s (similarity sim) on layer l, shrinking n's
// links with the selection heuristic when they overflow.
func (ix *HNSW) connect(n, s int32, sim float32, l int) {
	links := ix.links[n][l]
	if len(links) < ix.maxLinks(l) {
		ix.links[n][l] = append(links, s)
		return
	}
	nv := ix.point(n)
	cs := ix.candBuf[:0]
	for _, o := range links {
		cs = append(cs, cand{sim: ix.sim(&nv, o), slot: o})
	}
	cs = append(cs, cand{sim: sim, slot: s})
	sortCands(cs)
	ix.candBuf = cs
	links = links[:0]
	for _, c := range ix.selectNeighbors(cs, ix.maxLinks(l)) {
		links = append(links, c.slot)
	}
	ix.links[n][l] = links
}

// selectNeighbors picks up to m of cs (sorted best first) with the paper's
// heuristic (Algorithm 4): a candidate is kept only if it is more similar to
// the base than to every neighbour kept so far. This spreads links across
// directions, which keeps clustered data connected. The result aliases
// ix.selBuf.
func (ix *HNSW) selectNeighbors(cs []cand, m int) []cand {
	out := ix.selBuf[:0]
	for _, c := range cs {
		if len(out) == m {
			break
		}
		cv := ix.point(c.slot)
		keep := true
		for _, o := range out {
			if ix.sim(&cv, o.slot) > c.sim {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, c)
		}
	}
	ix.selBuf = out
	return out
}

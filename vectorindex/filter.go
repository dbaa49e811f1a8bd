package vectorindex

// SearchFilter returns the k stored vectors most similar to q among those
// whose IDs keep holds (every live vector when keep is nil), best first
// (Score descending, then ID ascending). It is the one search of the
// package, and it chooses how to answer:
//
//   - exactly, scoring every kept vector, while the index has no graph
//     (at most HNSWConfig.ExactLimit live vectors), when k is at least the
//     number of kept vectors, or when a filter keeps so few that scoring
//     them all costs less than walking the graph (see filterGraphCost);
//   - otherwise by walking the graph with the filter applied during the
//     walk: nodes outside keep (and tombstones) are traversed, so the
//     walk reaches the kept ones behind them, but only kept nodes are
//     collected, k of them at a beam of max(EfSearch, k) (see
//     HNSWConfig.EfSearch for its default by size). There is no
//     over-fetch and no filtering afterwards. Should the walk collect
//     fewer than k, or find that the filter keeps few of the nodes around
//     the query (see localShareDivisor), the search is answered exactly
//     instead, so it is never short.
//
// The result has min(k, kept vectors) entries. k ≤ 0 or a keep that holds
// no stored ID returns nil. A q of the wrong length returns ErrDimension;
// NaN or Inf in q returns ErrInvalidVector. keep must not be modified while
// the search runs.
func (ix *HNSW) SearchFilter(q []float32, k int, keep *IDSet) ([]Result, error) {
	if err := checkVector(q, ix.dim, "query"); err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	live := len(ix.slot)
	kept := live
	if keep != nil {
		kept = min(kept, keep.Len())
	}
	if kept == 0 {
		return nil, nil
	}
	p := ix.queryPoint(q)
	if ix.entry < 0 || k >= kept || scanCheaper(keep != nil, kept, live) {
		return ix.exact(&p, k, keep), nil
	}
	rs, local, ef := ix.graph(&p, k, keep)
	if len(rs) < k || farFromQuery(local, ef, kept, live) {
		return ix.exact(&p, k, keep), nil
	}
	return rs, nil
}

// scanCheaper reports whether an exact scan of the kept vectors costs less
// than a graph walk that collects only them (see filterGraphCost).
// Searches without a filter always walk.
func scanCheaper(filtered bool, kept, live int) bool {
	return filtered && kept*kept <= filterGraphCost*live
}

// farFromQuery reports whether a filtered walk found the filter keeping
// too few (local) of the ef nodes nearest the query for its answer to be
// trusted (see localShareDivisor).
func farFromQuery(local, ef, kept, live int) bool {
	return localShareDivisor*local*live < ef*kept
}

// SearchExact returns the k stored vectors most similar to q among those
// keep holds (all when keep is nil), scoring every one of them: the exact
// answer SearchFilter approximates, for measuring its recall on the same
// vectors (see Recall) without a second copy of them. Same arguments,
// errors and order as SearchFilter; it costs one dot product per kept
// vector.
func (ix *HNSW) SearchExact(q []float32, k int, keep *IDSet) ([]Result, error) {
	if err := checkVector(q, ix.dim, "query"); err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	p := ix.queryPoint(q)
	return ix.exact(&p, k, keep), nil
}

// filterGraphCost is what a graph search without a filter costs, in
// vectors an exact scan scores in the same time: measured at 100k
// catalog-like vectors of 100 dimensions, 0.51 ms for the graph at the
// default beam against 1.44 ms for scoring all 100k, so ~35k; 32,768 is
// taken. A walk whose filter keeps a fraction s of the live vectors must
// expand about 1/s times as many nodes to collect its beam (measured at
// 100k: 0.88 ms at s = 50 %, 3.4 ms at 10 %, 21 ms at 1 %), so it costs
// about filterGraphCost/s, and an exact scan of the kept vectors about
// s·live. SearchFilter scans exactly while that is cheaper:
//
//	kept · kept ≤ filterGraphCost · live
//
// Worked example: at 100k live vectors the scan is chosen up to
// √(32,768 · 100,000) ≈ 57,000 kept (57 %); at 300k, up to 99,000 (33 %);
// at 1M, up to 181,000 (18 %). The graph's cost grows with its size (about
// 17k vector-equivalents at 10k), so below 100k the rule leans to the scan,
// which then costs at most about twice the walk and is exact. Searches
// without a filter walk the graph whenever there is one (HNSWConfig.
// ExactLimit decides that).
const filterGraphCost = 32768

// localShareDivisor guards the filtered walk against filters that keep the
// vectors away from the query (a scope of some servers, a query about
// another server's tools). The walk counts how many of the ef nodes
// nearest the query it visited the filter keeps; when that local share is
// below the filter's overall share (kept/live) divided by
// localShareDivisor, the kept nearest
// neighbours lie outside the neighbourhood the graph search is reliable in
// (measured at 100k, whole-cluster filters keeping 50 %: recall@10 0.80 on
// such queries, 1.0 on the rest), and the search is answered exactly.
//
// Worked example: a filter keeps 60 % of the vectors, the beam is 128: the
// walk's answer is used when at least 0.6 · 128 / 2 ≈ 39 of the 128
// nodes nearest the query are kept. A filter that keeps IDs at random is
// never this far off (at 50 % kept: no query of 300 fell back); one that
// drops the query's own cluster is.
const localShareDivisor = 2

// graph walks the graph for the k nearest vectors that keep holds, best
// first; it may return fewer than k. local is how many of the walk's ef
// nearest nodes, kept or not, keep holds (ef when keep is nil).
func (ix *HNSW) graph(q *point, k int, keep *IDSet) (rs []Result, local, ef int) {
	ep := cand{sim: ix.sim(q, ix.entry), slot: ix.entry}
	for l := ix.top; l > 0; l-- {
		ep = ix.greedy(q, ep, l)
	}
	ef = max(ix.efSearch(), k)
	vs := ix.visitSet()
	found, local := ix.walkLayer(q, ep, ef, 0, walk{live: true, keep: keep}, vs, keep != nil)
	ix.visits.Put(vs)
	if keep == nil {
		local = ef
	}
	t := newTopK(min(k, len(found)))
	for _, c := range found {
		t.push(Result{ID: ix.ids[c.slot], Score: c.sim})
	}
	return t.sorted(), local, ef
}

// Exact scans under a filter, by the share of slots the filter keeps:
//
//   - below 1 in exactLookupRatio, each kept ID's slot is looked up (a map
//     access, ~25 ns) and scored: at 100k slots a filter of 1,000 IDs costs
//     1,000 lookups (~25 µs) instead of a pass over 100k slots;
//   - below 1 in exactScoreAllRatio, every slot's ID is tested against the
//     filter (a bit test) and only kept ones are scored (100k slots, filter
//     keeping 10 %: 0.7–1.1 ms);
//   - above, every live slot is scored and the filter is tested only for
//     the few scores good enough to enter the top k: scoring costs ~15 ns
//     per 100-dimension vector, and testing first mispredicts a branch on
//     many slots, which measured slower from 1 in 5 on (100k slots, filter
//     keeping 20 %: 2.9–4.3 ms testing first, 1.8 ms scoring all; numbers
//     from a loaded 2-core machine).
const (
	exactLookupRatio   = 16
	exactScoreAllRatio = 8
)

// exact scores q against every live vector that keep holds (all live
// vectors when keep is nil) and returns the best k. The caller holds the
// read lock.
func (ix *HNSW) exact(q *point, k int, keep *IDSet) []Result {
	n := len(ix.slot)
	if keep != nil {
		n = min(n, keep.Len())
	}
	if n == 0 {
		return nil
	}
	t := newTopK(min(k, n))
	switch {
	case keep == nil:
		for s, id := range ix.ids {
			if !ix.deleted[s] {
				t.offer(id, ix.sim(q, int32(s)))
			}
		}
	case keep.Len()*exactLookupRatio < len(ix.ids):
		keep.each(func(id int) {
			if s, ok := ix.slot[id]; ok {
				t.offer(id, ix.sim(q, s))
			}
		})
	case keep.Len()*exactScoreAllRatio < len(ix.ids):
		for s, id := range ix.ids {
			if !ix.deleted[s] && keep.Has(id) {
				t.offer(id, ix.sim(q, int32(s)))
			}
		}
	default:
		for s, id := range ix.ids {
			if sim := ix.sim(q, int32(s)); t.admits(sim) && !ix.deleted[s] && keep.Has(id) {
				t.push(Result{ID: id, Score: sim})
			}
		}
	}
	if len(t.rs) == 0 {
		return nil
	}
	return t.sorted()
}

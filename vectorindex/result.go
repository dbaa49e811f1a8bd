package vectorindex

import (
	"cmp"
	"slices"
)

// Result is one hit of a Search.
type Result struct {
	// ID is the caller's identifier given to Add.
	ID int
	// Score is the dot product of the query and the stored vector: the
	// cosine similarity in [-1, 1] when both are L2-normalized, as callers
	// guarantee. Higher is more similar.
	Score float32
}

// compareResults orders results best first: Score descending, then ID
// ascending, a total order so rankings are deterministic.
func compareResults(a, b Result) int {
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// sortResults sorts rs best first (see compareResults).
func sortResults(rs []Result) { slices.SortFunc(rs, compareResults) }

// Recall returns |approx ∩ exact| / |exact|, comparing IDs: the fraction of
// the exact nearest neighbours that an approximate search found. It returns
// 1 when exact is empty (there was nothing to find).
func Recall(approx, exact []Result) float64 {
	if len(exact) == 0 {
		return 1
	}
	want := make(map[int]bool, len(exact))
	for _, r := range exact {
		want[r.ID] = true
	}
	hit := 0
	for _, r := range approx {
		if want[r.ID] {
			hit++
			delete(want, r.ID) // a duplicate in approx counts once
		}
	}
	return float64(hit) / float64(len(exact))
}

// topK keeps the k best results seen so far in a heap whose root is the
// worst kept result, so a full scan costs O(n log k).
type topK struct {
	k  int
	rs []Result
}

func newTopK(k int) *topK { return &topK{k: k, rs: make([]Result, 0, k)} }

// worse reports whether rs[i] ranks below rs[j].
func (t *topK) worse(i, j int) bool { return compareResults(t.rs[i], t.rs[j]) > 0 }

func (t *topK) push(r Result) {
	if t.k <= 0 {
		return
	}
	if len(t.rs) < t.k {
		t.rs = append(t.rs, r)
		for i := len(t.rs) - 1; i > 0; {
			p := (i - 1) / 2
			if !t.worse(i, p) {
				break
			}
			t.rs[i], t.rs[p] = t.rs[p], t.rs[i]
			i = p
		}
		return
	}
	if compareResults(r, t.rs[0]) >= 0 { // not better than the worst kept
		return
	}
	t.rs[0] = r
	for i := 0; ; {
		l, w := 2*i+1, i
		if l < len(t.rs) && t.worse(l, w) {
			w = l
		}
		if l+1 < len(t.rs) && t.worse(l+1, w) {
			w = l + 1
		}
		if w == i {
			break
		}
		t.rs[i], t.rs[w] = t.rs[w], t.rs[i]
		i = w
	}
}

// admits reports whether a result of this score may enter the heap: false
// when the heap is full and score is below the worst kept one (on ties
// push decides by ID).
func (t *topK) admits(score float32) bool {
	return t.k > 0 && (len(t.rs) < t.k || score >= t.rs[0].Score)
}

// offer pushes the result (id, score) unless the heap is full and score is
// below the worst kept one: most of an exact scan's results are rejected by
// that one comparison (on ties push decides by ID).
func (t *topK) offer(id int, score float32) {
	if !t.admits(score) {
		return
	}
	t.push(Result{ID: id, Score: score})
}

// sorted returns the kept results best first.
func (t *topK) sorted() []Result {
	sortResults(t.rs)
	return t.rs
}

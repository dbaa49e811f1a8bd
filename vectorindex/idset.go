package vectorindex

import "math/bits"

// IDSet is a set of non-negative IDs held as a bitset: the filter of
// [HNSW.SearchFilter], which returns only vectors whose IDs it holds.
//
// A bitset rather than a func(id int) bool, because the search needs two
// things from a filter: how many vectors it keeps, to choose between an
// exact scan and the graph (a bitset counts itself with a popcount, ~1 µs
// for 100k IDs, where a predicate would have to be called on every vector,
// ~0.3 ms at 100k, as much as the graph search it is meant to choose), and
// a membership test on every node the graph walk reaches (a bit test,
// inlined, where a predicate is an indirect call). Its cost is one bit per
// ID up to the largest: 12.5 kB for IDs below 100k.
//
// IDs must be non-negative: Add ignores a negative ID and Has reports false
// for it, so such an ID is never kept (the engine's vector IDs count up from
// 0). The zero value is an empty set, ready to use. An IDSet is not safe for
// concurrent modification; once built it may be read (searched with) by any
// number of goroutines, and must not be modified while a search uses it.
type IDSet struct {
	words []uint64
	n     int
}

// NewIDSet returns a set holding ids (negative IDs are ignored).
func NewIDSet(ids ...int) *IDSet {
	s := &IDSet{}
	for _, id := range ids {
		s.Add(id)
	}
	return s
}

// Add puts id in the set; a negative id is ignored.
func (s *IDSet) Add(id int) {
	if id < 0 {
		return
	}
	w := id >> 6
	if w >= len(s.words) {
		s.words = append(s.words, make([]uint64, w+1-len(s.words))...)
	}
	if m := uint64(1) << (id & 63); s.words[w]&m == 0 {
		s.words[w] |= m
		s.n++
	}
}

// Has reports whether id is in the set.
func (s *IDSet) Has(id int) bool {
	w := id >> 6
	return id >= 0 && w < len(s.words) && s.words[w]&(1<<(id&63)) != 0
}

// Len returns the number of IDs in the set.
func (s *IDSet) Len() int { return s.n }

// each calls f with every ID in the set, in ascending order.
func (s *IDSet) each(f func(id int)) {
	for w, word := range s.words {
		for word != 0 {
			f(w<<6 | bits.TrailingZeros64(word))
			word &= word - 1
		}
	}
}

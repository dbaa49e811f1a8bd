// Package pvec is a copy-on-write array stored in fixed-size chunks, so a
// changed copy shares every chunk it does not change with the original:
// setting one element of a 100,000-element Vec copies one 32-element chunk
// and the chunk list (3,125 pointers), not 100,000 elements.
//
// The catalog, the keyword index and the search engine keep their per-tool
// (and per-term) arrays in Vecs, so that a catalog change costs what it
// changes while readers keep seeing whole, unchanging snapshots.
package pvec

import "iter"

// chunkBits sets the chunk size: 1<<5 = 32 elements, so an edit copies 32
// elements (a few KB of the largest records) and a Vec of 100,000 elements
// has 3,125 chunk pointers (75 KB of slice headers) to copy per Edit.
const chunkBits = 5

const chunkSize = 1 << chunkBits

// Vec is a copy-on-write array. Its zero value is empty.
//
// Concurrency: a Vec that no writer holds is read-only and safe for any
// number of concurrent readers (Len, At, All, Slice). A writer gets its own
// copy from Edit, changes it (Mut, Append, Truncate), then calls Done; each
// shared chunk is cloned before the copy's first write to it, so the Vec it
// was made from, and its readers, never see a change. One goroutine at a
// time may write a copy, and a copy must not be read by others before Done.
type Vec[T any] struct {
	chunks [][]T
	n      int
	owned  []bool // per chunk, written by this copy already (nil: none)
}

// Of returns a Vec holding a copy of s.
func Of[T any](s []T) Vec[T] {
	var v Vec[T]
	for _, x := range s {
		v.Append(x)
	}
	v.Done()
	return v
}

// Len returns the number of elements.
func (v *Vec[T]) Len() int { return v.n }

// At returns element i, 0 ≤ i < Len(), which the caller must not modify.
func (v *Vec[T]) At(i int) *T {
	if uint(i) >= uint(v.n) {
		panic("pvec: index out of range")
	}
	return &v.chunks[i>>chunkBits][i&(chunkSize-1)]
}

// Get returns a copy of element i, 0 ≤ i < Len().
func (v *Vec[T]) Get(i int) T { return *v.At(i) }

// All yields every index and element in order.
func (v *Vec[T]) All() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		for i := range v.n {
			if !yield(i, v.chunks[i>>chunkBits][i&(chunkSize-1)]) {
				return
			}
		}
	}
}

// Slice returns the elements as one new slice.
func (v *Vec[T]) Slice() []T {
	out := make([]T, v.n)
	for c, chunk := range v.chunks {
		copy(out[c<<chunkBits:], chunk[:min(chunkSize, v.n-c<<chunkBits)])
	}
	return out
}

// Edit returns a copy of v that a writer may change without changing v.
func (v *Vec[T]) Edit() Vec[T] {
	return Vec[T]{chunks: append([][]T(nil), v.chunks...), n: v.n, owned: make([]bool, len(v.chunks))}
}

// Mut returns element i for writing, cloning its chunk first if it is
// shared. i may be Len(), or beyond it: the Vec grows to i+1 elements, the
// new ones zero. Mut, Append and Truncate work on a Vec from Edit, or on a
// new Vec being filled, until Done; on a read-only Vec they panic.
func (v *Vec[T]) Mut(i int) *T {
	if i < 0 {
		panic("pvec: negative index")
	}
	if v.owned == nil && len(v.chunks) > 0 {
		panic("pvec: write to a read-only Vec; write to a copy from Edit")
	}
	c := i >> chunkBits
	if i >= v.n {
		v.n = i + 1
	}
	for c >= len(v.chunks) {
		v.chunks = append(v.chunks, make([]T, chunkSize))
		v.owned = append(v.owned, true)
	}
	if !v.owned[c] {
		v.chunks[c] = append(make([]T, 0, chunkSize), v.chunks[c]...)
		v.owned[c] = true
	}
	return &v.chunks[c][i&(chunkSize-1)]
}

// Append adds x at the end.
func (v *Vec[T]) Append(x T) { *v.Mut(v.n) = x }

// Truncate drops the elements from n on; it does nothing if n ≥ Len().
func (v *Vec[T]) Truncate(n int) {
	if n < 0 {
		panic("pvec: negative length")
	}
	if n >= v.n {
		return
	}
	var zero T
	c := (n + chunkSize - 1) >> chunkBits
	for i := n; i < c<<chunkBits && i < v.n; i++ {
		*v.Mut(i) = zero // drop references from the kept last chunk
	}
	v.chunks, v.n = v.chunks[:c:c], n
	if len(v.owned) > c {
		v.owned = v.owned[:c]
	}
}

// Done ends a writer's changes: the Vec becomes read-only, and a later
// Edit or Mut copies the chunks it writes again.
func (v *Vec[T]) Done() { v.owned = nil }

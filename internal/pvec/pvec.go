// Package pvec is an immutable sequence that is cheap to change: a
// persistent vector stored in fixed-size chunks, so a changed copy shares
// every chunk it does not change with the original. Setting one element of
// a 100,000-element Vec copies one chunk and the chunk list (about 100
// pointers), not 100,000 elements.
//
// The catalog and the search engine keep their per-tool arrays in Vecs so
// that a catalog change costs what it changes while readers keep seeing
// whole, unchanging snapshots.
package pvec

import "iter"

// chunkBits sets the chunk size, 1<<chunkBits elements: 512 keeps a copied
// chunk small (8 KB of strings, 86 KB of 168-byte tools) and the chunk list
// short (196 chunks at 100,000 elements).
const chunkBits = 9

const (
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
)

// Vec is an immutable sequence of T. A Vec is a value, safe to copy and safe
// for concurrent readers; Edit returns a Builder that makes a changed copy
// without changing v. The zero value is an empty Vec.
type Vec[T any] struct {
	chunks [][]T // every chunk but the last is full
	n      int
}

// Of returns a Vec holding a copy of s.
func Of[T any](s []T) Vec[T] {
	var b Builder[T]
	b.AppendSlice(s)
	return b.Vec()
}

// Len is the number of elements.
func (v Vec[T]) Len() int { return v.n }

// At returns element i; it panics if i is out of range [0, Len()), as
// indexing a slice does.
func (v Vec[T]) At(i int) T {
	if uint(i) >= uint(v.n) {
		panic("pvec: index out of range")
	}
	return v.chunks[i>>chunkBits][i&chunkMask]
}

// All yields every index and element in order.
func (v Vec[T]) All() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		i := 0
		for _, c := range v.chunks {
			for _, x := range c {
				if !yield(i, x) {
					return
				}
				i++
			}
		}
	}
}

// Slice returns the elements as one new slice.
func (v Vec[T]) Slice() []T {
	out := make([]T, 0, v.n)
	for _, c := range v.chunks {
		out = append(out, c...)
	}
	return out
}

// Edit returns a Builder that starts from v. Changes made through it never
// change v.
func (v Vec[T]) Edit() *Builder[T] {
	return &Builder[T]{v: Vec[T]{chunks: append([][]T(nil), v.chunks...), n: v.n}}
}

// Builder makes a changed copy of a Vec, copying each chunk the first time
// it changes one of its elements. It is not safe for concurrent use; the
// Vecs it returns are. The zero value builds from an empty Vec.
type Builder[T any] struct {
	v     Vec[T]
	owned map[int]bool // chunks this builder copied (or made), so may write
}

// own returns chunk c, copied first unless this builder already owns it.
func (b *Builder[T]) own(c int) []T {
	if !b.owned[c] {
		if b.owned == nil {
			b.owned = map[int]bool{}
		}
		b.owned[c] = true
		cp := make([]T, len(b.v.chunks[c]), chunkSize)
		copy(cp, b.v.chunks[c])
		b.v.chunks[c] = cp
	}
	return b.v.chunks[c]
}

// Len is the number of elements so far.
func (b *Builder[T]) Len() int { return b.v.n }

// At returns element i as the builder has it now.
func (b *Builder[T]) At(i int) T { return b.v.At(i) }

// Set replaces element i; it panics if i is out of range.
func (b *Builder[T]) Set(i int, x T) {
	if uint(i) >= uint(b.v.n) {
		panic("pvec: index out of range")
	}
	b.own(i >> chunkBits)[i&chunkMask] = x
}

// Append adds x at the end.
func (b *Builder[T]) Append(x T) {
	c := b.v.n >> chunkBits
	if c == len(b.v.chunks) {
		b.v.chunks = append(b.v.chunks, make([]T, 0, chunkSize))
		if b.owned == nil {
			b.owned = map[int]bool{}
		}
		b.owned[c] = true
	}
	chunk := b.own(c)
	b.v.chunks[c] = append(chunk, x)
	b.v.n++
}

// AppendSlice adds every element of s at the end.
func (b *Builder[T]) AppendSlice(s []T) {
	for _, x := range s {
		b.Append(x)
	}
}

// Truncate drops the elements from n on; it panics if n is out of range
// [0, Len()].
func (b *Builder[T]) Truncate(n int) {
	if n < 0 || n > b.v.n {
		panic("pvec: truncate out of range")
	}
	if n == b.v.n {
		return
	}
	keep := (n + chunkMask) >> chunkBits
	var zero T
	for c := keep; c < len(b.v.chunks); c++ {
		delete(b.owned, c)
	}
	b.v.chunks = b.v.chunks[:keep:keep]
	if rem := n & chunkMask; rem != 0 {
		last := b.own(keep - 1)
		for i := rem; i < len(last); i++ {
			last[i] = zero // drop references
		}
		b.v.chunks[keep-1] = last[:rem]
	}
	b.v.n = n
}

// Vec returns the sequence built so far. The builder stays usable: later
// changes copy the chunks they touch again, so the returned Vec never
// changes.
func (b *Builder[T]) Vec() Vec[T] {
	v := b.v
	v.chunks = append([][]T(nil), b.v.chunks...)
	clear(b.owned)
	return v
}

package fallback

import (
	"iter"
	"maps"
	"slices"
)

// The copy-on-write containers below (and pvec.Vec, for arrays) let Apply derive a new Index from an
// old one in time proportional to the change: the new Index shares every
// part the change does not touch with the old one, and the old one is never
// written, so its readers go on undisturbed.

// omap is a copy-on-write map: base is shared between Index versions and
// never written once published; over holds the changes since base was
// made (deletions as entries with ok unset). A writer clones over (small)
// and, when it grows past a share of base (see flatten), merges the two
// into a new base.
type omap[K comparable, V any] struct {
	base map[K]V
	over map[K]oentry[V]
	// direct: writes go to base (a new map no reader sees yet: a build).
	direct bool
}

type oentry[V any] struct {
	v  V
	ok bool
}

// get returns the value of k.
func (m *omap[K, V]) get(k K) (V, bool) {
	if len(m.over) > 0 {
		if e, hit := m.over[k]; hit {
			return e.v, e.ok
		}
	}
	v, ok := m.base[k]
	return v, ok
}

// edit returns a copy of m that a writer may change without changing m.
func (m *omap[K, V]) edit() omap[K, V] {
	return omap[K, V]{base: m.base, over: maps.Clone(m.over)}
}

// set sets k to v (writers only, on a copy from edit).
func (m *omap[K, V]) set(k K, v V) {
	if m.direct {
		if m.base == nil {
			m.base = map[K]V{}
		}
		m.base[k] = v
		return
	}
	if m.over == nil {
		m.over = map[K]oentry[V]{}
	}
	m.over[k] = oentry[V]{v: v, ok: true}
}

// del deletes k (writers only, on a copy from edit).
func (m *omap[K, V]) del(k K) {
	if m.direct {
		delete(m.base, k)
		return
	}
	if _, ok := m.get(k); !ok {
		return
	}
	if _, inBase := m.base[k]; !inBase {
		delete(m.over, k)
		return
	}
	if m.over == nil {
		m.over = map[K]oentry[V]{}
	}
	m.over[k] = oentry[V]{}
}

// len returns the number of keys.
func (m *omap[K, V]) len() int {
	n := len(m.base)
	for k, e := range m.over {
		_, inBase := m.base[k]
		switch {
		case e.ok && !inBase:
			n++
		case !e.ok && inBase:
			n--
		}
	}
	return n
}

// all yields every key and its value, in no particular order.
func (m *omap[K, V]) all() iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		for k, v := range m.base {
			if _, hit := m.over[k]; !hit && !yield(k, v) {
				return
			}
		}
		for k, e := range m.over {
			if e.ok && !yield(k, e.v) {
				return
			}
		}
	}
}

// maxOverlayShare bounds an omap's overlay: once it holds more than
// 1/maxOverlayShare of the base's entries (plus minOverlay), a writer
// merges it into a new base. The merge copies the base, so it is amortized
// over at least len(base)/maxOverlayShare changed keys.
//
// Worked example: a 100,000-entry map is copied once per 12,500 changed
// keys, so an Apply that changes 50 keys pays 0.4% of a copy on average.
const (
	maxOverlayShare = 8
	minOverlay      = 256
)

// finish ends a writer's session (see flatten); m becomes read-only.
func (m *omap[K, V]) finish() {
	m.direct = false
	m.flatten()
}

// flatten merges the overlay into a new base if it has grown too big
// (writers only).
func (m *omap[K, V]) flatten() {
	if len(m.over) <= len(m.base)/maxOverlayShare+minOverlay {
		return
	}
	b := maps.Clone(m.base)
	if b == nil {
		b = map[K]V{}
	}
	for k, e := range m.over {
		if e.ok {
			b[k] = e.v
		} else {
			delete(b, k)
		}
	}
	m.base, m.over = b, nil
}

// slist is a copy-on-write sorted list of distinct strings: the elements
// of base that are not in gone, and those of born. gone ⊆ base and born ∩
// base = ∅, both sorted and small: update merges them into a new base once
// they grow past a share of it.
type slist struct {
	base, gone, born []string
}

// maxPendingShare bounds an slist's pending changes: past
// len(base)/maxPendingShare + minOverlay of them, update rewrites base.
//
// Worked example: a vocabulary of 30,000 words is rewritten once per about
// 1,900 words that come or go.
const maxPendingShare = 16

// from yields the elements ≥ k, ascending.
func (l *slist) from(k string) iter.Seq[string] {
	return func(yield func(string) bool) {
		i, _ := slices.BinarySearch(l.base, k)
		j, _ := slices.BinarySearch(l.born, k)
		for i < len(l.base) || j < len(l.born) {
			var s string
			if j >= len(l.born) || i < len(l.base) && l.base[i] < l.born[j] {
				s = l.base[i]
				i++
				if len(l.gone) > 0 {
					if _, ok := slices.BinarySearch(l.gone, s); ok {
						continue
					}
				}
			} else {
				s = l.born[j]
				j++
			}
			if !yield(s) {
				return
			}
		}
	}
}

// update returns l without the elements gone and with the new elements
// born (both sorted).
func (l slist) update(gone, born []string) slist {
	var goneBase, goneBorn, back, fresh []string
	for _, s := range gone {
		if _, ok := slices.BinarySearch(l.born, s); ok {
			goneBorn = append(goneBorn, s)
		} else {
			goneBase = append(goneBase, s)
		}
	}
	for _, s := range born {
		if _, ok := slices.BinarySearch(l.gone, s); ok {
			back = append(back, s)
		} else {
			fresh = append(fresh, s)
		}
	}
	nl := slist{base: l.base, gone: mergeSorted(l.gone, back, goneBase), born: mergeSorted(l.born, goneBorn, fresh)}
	if len(nl.gone)+len(nl.born) > len(nl.base)/maxPendingShare+minOverlay {
		nl = slist{base: mergeSorted(nl.base, nl.gone, nl.born)}
	}
	return nl
}

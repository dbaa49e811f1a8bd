package fallback

import (
	"slices"
	"unicode/utf8"
)

// The fuzzy candidates. A word the catalog does not know is compared with
// the vocabulary (correct) and a one-word query with the tools' names
// (fuzzyName) by walking a sorted list as a trie: strings that share a
// prefix share its rows of the edit-distance table, and a prefix already
// more than k edits from every completion skips all the strings that start
// with it. The work is the number of distinct prefixes within k edits of
// the word — a few hundred — not the size of the vocabulary or catalog:
// a query of unknown words costs about what a normal one does, at 100
// tools or 100,000. The distances, and so the results, are those of
// comparing the word with every string.

// cursor reads a sorted list of strings (duplicates allowed): seek moves
// it to the first string ≥ k, next returns the strings from there in
// ascending order. It is a plain value, so that the walk's many seeks
// allocate nothing.
type cursor interface {
	seek(k string)
	next() (string, bool)
}

// withinEdits calls visit with every string of the sorted list c reads
// whose optimal-string-alignment distance to w (over runes) is at most k,
// and with that distance, in ascending order; visit returns false to stop.
func withinEdits(c cursor, w string, k int, visit func(s string, d int) bool) {
	q := []rune(w)
	m := len(q)
	// rows[i] is the table's row after the first i runes of the current
	// prefix (cand); rows[0] is the empty prefix's.
	rows := [][]int{make([]int, m+1)}
	for j := range rows[0] {
		rows[0][j] = j
	}
	var cand []rune
	start := ""
	for {
		skipTo, skipping := "", false
		c.seek(start)
		for s, ok := c.next(); ok; s, ok = c.next() {
			// Keep the rows of the prefix s shares with the previous string.
			i, off := 0, 0
			for i < len(cand) && off < len(s) {
				r, size := utf8.DecodeRuneInString(s[off:])
				if r != cand[i] {
					break
				}
				i, off = i+1, off+size
			}
			if i < len(cand) {
				cand = cand[:i]
			}
			pruned := false
			for off < len(s) {
				r, size := utf8.DecodeRuneInString(s[off:])
				off += size
				cand = append(cand, r)
				n := len(cand)
				if len(rows) <= n {
					rows = append(rows, make([]int, m+1))
				}
				if nextRow(rows[n], rows[n-1], rowOrNil(rows, n-2), cand, q) > k {
					pruned = true
					break
				}
			}
			if pruned {
				// No string starting with s[:off] is within k: go past them.
				if next, ok := successor(s[:off]); ok {
					skipTo, skipping = next, true
					break
				}
				continue
			}
			if d := rows[len(cand)][m]; d <= k && !visit(s, d) {
				return
			}
		}
		if !skipping {
			return
		}
		start = skipTo
	}
}

// rowOrNil is rows[i], or nil for i < 0.
func rowOrNil(rows [][]int, i int) []int {
	if i < 0 {
		return nil
	}
	return rows[i]
}

// nextRow fills row, the table's row after cand (its last rune new), from
// prev (the row before it) and prev2 (the one before that, nil at the
// first rune), and returns the row's minimum.
func nextRow(row, prev, prev2 []int, cand, q []rune) int {
	n := len(cand)
	c := cand[n-1]
	row[0] = n
	rowMin := n
	for j := 1; j <= len(q); j++ {
		cost := 1
		if c == q[j-1] {
			cost = 0
		}
		v := min(prev[j]+1, row[j-1]+1, prev[j-1]+cost)
		if prev2 != nil && j > 1 && c == q[j-2] && cand[n-2] == q[j-1] {
			v = min(v, prev2[j-2]+1)
		}
		row[j] = v
		rowMin = min(rowMin, v)
	}
	return rowMin
}

// successor returns the smallest string greater than every string that
// starts with p (p with its last rune incremented); false when there is
// none to give (p's last rune is the largest).
func successor(p string) (string, bool) {
	r, size := utf8.DecodeLastRuneInString(p)
	if r == utf8.RuneError || r >= utf8.MaxRune {
		return "", false
	}
	r++
	if r == 0xD800 { // surrogates are not valid runes
		r = 0xE000
	}
	return p[:len(p)-size] + string(r), true
}

// sliceCursor is a cursor over a sorted slice.
type sliceCursor struct {
	ss []string
	i  int
}

func (c *sliceCursor) seek(k string) { c.i, _ = slices.BinarySearch(c.ss, k) }

func (c *sliceCursor) next() (string, bool) {
	if c.i >= len(c.ss) {
		return "", false
	}
	c.i++
	return c.ss[c.i-1], true
}

// slistCursor is a cursor over an slist: its base less gone, merged with
// born.
type slistCursor struct {
	l    *slist
	i, j int
}

func (c *slistCursor) seek(k string) {
	c.i, _ = slices.BinarySearch(c.l.base, k)
	c.j, _ = slices.BinarySearch(c.l.born, k)
}

func (c *slistCursor) next() (string, bool) {
	l := c.l
	for c.i < len(l.base) || c.j < len(l.born) {
		if c.j >= len(l.born) || c.i < len(l.base) && l.base[c.i] < l.born[c.j] {
			s := l.base[c.i]
			c.i++
			if len(l.gone) > 0 {
				if _, gone := slices.BinarySearch(l.gone, s); gone {
					continue
				}
			}
			return s, true
		}
		c.j++
		return l.born[c.j-1], true
	}
	return "", false
}

// nameKeys is the tools' name keys (nameKey) sorted, for fuzzyName: keys
// the distinct keys, and ids[start[i]:start[i+1]] the tools of keys[i].
// Made on the first fuzzy name query of an Index (Apply makes a new
// Index, whose first such query makes them again).
type nameKeys struct {
	keys  []string
	start []int32
	ids   []int32
}

// fuzzyNameKeys returns ix's nameKeys, making them on first use. Safe for
// concurrent use: two first uses may both make them; one is kept.
func (ix *Index) fuzzyNameKeys() *nameKeys {
	if nk := ix.names.Load(); nk != nil {
		return nk
	}
	n := ix.Len()
	order := make([]int32, n)
	for id := range order {
		order[id] = int32(id)
	}
	slices.SortFunc(order, func(a, b int32) int {
		ka, kb := ix.docs.At(int(a)).nameKey, ix.docs.At(int(b)).nameKey
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return int(a - b)
	})
	nk := &nameKeys{ids: order}
	for i, id := range order {
		k := ix.docs.At(int(id)).nameKey
		if len(nk.keys) == 0 || nk.keys[len(nk.keys)-1] != k {
			nk.keys = append(nk.keys, k)
			nk.start = append(nk.start, int32(i))
		}
	}
	nk.start = append(nk.start, int32(n))
	ix.names.CompareAndSwap(nil, nk)
	return ix.names.Load()
}

// tools returns the IDs of the tools whose name key is key.
func (nk *nameKeys) tools(key string) []int32 {
	i, ok := slices.BinarySearch(nk.keys, key)
	if !ok {
		return nil
	}
	return nk.ids[nk.start[i]:nk.start[i+1]]
}

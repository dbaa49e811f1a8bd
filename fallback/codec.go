package fallback

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/toolsearch/toolsearch/internal/binfmt"
)

// The values of a saved index (persist.go) beyond binfmt's: strings,
// which refer to one table of the distinct strings, and postings.

// stringTable is the distinct strings of an index being saved, each with
// its offset in the table.
type stringTable struct {
	offs  map[string]uint32 // string → offset
	order []string          // the strings in offset order
	size  int               // their total length
	err   error
}

func newStringTable() *stringTable { return &stringTable{offs: map[string]uint32{}} }

// add adds s, if new.
func (t *stringTable) add(s string) {
	if _, ok := t.offs[s]; ok || t.err != nil {
		return
	}
	if uint64(t.size)+uint64(len(s)) > math.MaxUint32 {
		t.err = errors.New("fallback: the index's strings exceed 4 GiB, which the saved layout cannot address")
		return
	}
	t.offs[s] = uint32(t.size)
	t.order = append(t.order, s)
	t.size += len(s)
}

// encoder writes the sections of an index. With a nil Writer (pass 1) it
// only collects the strings.
type encoder struct {
	*binfmt.Writer
	strs *stringTable
}

// str writes a string as its offset and length in the strings (pass 1:
// adds it to them).
func (e *encoder) str(s string) {
	if e.Writer == nil {
		e.strs.add(s)
		return
	}
	e.U32(e.strs.offs[s])
	e.U32(uint32(len(s)))
}

func (e *encoder) strList(ss []string) {
	e.U32(uint32(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *encoder) postings(ps []posting) {
	if e.Writer == nil {
		return
	}
	e.U32(uint32(len(ps)))
	for _, p := range ps {
		e.I32(p.doc)
		e.F32(p.sat)
	}
}

// writeMap writes an omap's entries: their number, then each key and
// value.
func writeMap[K comparable, V any](e *encoder, m *omap[K, V], key func(K), val func(V)) {
	e.U32(uint32(m.len()))
	for k, v := range m.all() {
		key(k)
		val(v)
	}
}

// decoder reads the sections of an index; its first error sticks (see
// binfmt.Reader), so a section is read whole and checked once.
type decoder struct {
	*binfmt.Reader
	strs string // the strings, which every decoded string is part of
}

func (d *decoder) str() string {
	off, n := d.U32(), d.U32()
	if d.Err() != nil {
		return ""
	}
	if uint64(off)+uint64(n) > uint64(len(d.strs)) {
		d.Failf("string at %d of %d bytes past the strings' end", off, n)
		return ""
	}
	return d.strs[off : off+n]
}

func (d *decoder) strList() []string {
	k := d.Count(8)
	if k == 0 {
		return nil
	}
	out := make([]string, k)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *decoder) postings() []posting {
	k := d.Count(8)
	if k == 0 {
		return nil
	}
	b := d.Bytes(8 * k)
	if b == nil {
		return nil
	}
	out := make([]posting, k)
	for i := range out {
		out[i] = posting{doc: int32(binary.LittleEndian.Uint32(b[8*i:])), sat: math.Float32frombits(binary.LittleEndian.Uint32(b[8*i+4:]))}
	}
	return out
}

// readMap reads what writeMap wrote, as a map; minEntry is the fewest
// bytes an entry takes (to refuse a count the data cannot hold).
func readMap[K comparable, V any](d *decoder, minEntry int, key func() K, val func() V) map[K]V {
	k := d.Count(minEntry)
	m := make(map[K]V, k)
	for range k {
		kk := key()
		m[kk] = val()
	}
	return m
}

// in checks 0 ≤ id < n.
func (d *decoder) in(id int32, n int) bool {
	if id < 0 || int(id) >= n {
		d.Failf("ID %d out of range [0, %d)", id, n)
		return false
	}
	return true
}

func (d *decoder) allIn(ids []int32, n int) {
	for _, id := range ids {
		if !d.in(id, n) {
			return
		}
	}
}

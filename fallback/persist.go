package fallback

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"maps"
	"math"
	"slices"

	"github.com/toolsearch/toolsearch/analysis"
	"github.com/toolsearch/toolsearch/internal/pvec"
)

// An Index can be saved (WriteTo) and read back (ReadIndex), so that a
// restart over an unchanged catalog loads its keyword index instead of
// analysing every tool again: at 300k tools the build takes about 6 s on two
// cores and the load about 1 s (docs/benchmarks.md).
//
// The layout, all integers little-endian:
//
//	magic "toolsearch-keyword\n", version (u32)
//	strings: their total length (u64) and bytes, each string once
//	the index's parts, in the order of (*Index).encode; a string is its
//	offset and length in the strings (u32 each)
//	CRC-32C of everything before it (u32)
//
// A saved index holds what the Index holds, so a loaded one answers every
// query as the saved one did and Apply continues from it (the statistics
// frozen at its last full build included). What follows from the rest is
// made again on load, as a build makes it: the name maps (from the
// documents), the sorted vocabularies (the keys of their maps) and the
// words by length, the number of servers, the decompounder (from its
// dictionary), and what finish derives (term ID slices, idf tables).

// persistMagic starts a saved index; persistVersion is its layout, raised
// whenever the layout or the meaning of a part changes.
const (
	persistMagic   = "toolsearch-keyword\n"
	persistVersion = 2
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is wrapped by ReadIndex's errors about the content of the
// data (as opposed to errors reading it).
var ErrCorrupt = errors.New("not a valid saved keyword index")

// WriteTo writes the index in the layout above. It reads the index only, so
// it is safe to call while others search it.
func (ix *Index) WriteTo(w io.Writer) (int64, error) {
	if ix.st == nil {
		ix = NewIndex(nil) // the zero value: an empty index
	}
	// Pass 1 collects the distinct strings, pass 2 writes them and then the
	// parts, referring to them.
	strs := &encoder{strs: map[string]uint32{}}
	ix.encode(strs)
	if strs.err != nil {
		return 0, strs.err
	}
	e := &encoder{w: w, strs: strs.strs, crc: crc32.New(castagnoli)}
	e.bytes([]byte(persistMagic))
	e.u32(persistVersion)
	e.u64(uint64(strs.size))
	for _, s := range strs.order {
		e.bytes([]byte(s))
	}
	ix.encode(e)
	e.flushAt(0)
	if e.err == nil {
		e.write(binary.LittleEndian.AppendUint32(nil, e.crc.Sum32()))
	}
	return e.n, e.err
}

// ReadIndex reads an index written by WriteTo from r, whose remaining
// length is size bytes when known (a file's size less what was read of it),
// or -1: with the size the data is read into one buffer of that size, which
// at a million tools saves several seconds of copying a growing one. Data of
// another layout version, truncated, longer than size, or failing its
// checksum is refused with an error wrapping ErrCorrupt; so is data whose
// parts do not fit together (an ID out of range, a tool missing from its
// server's list, a server override without its posting), so that a damaged
// file does not make an index that panics. (The checks are those every
// query and Apply rely on; FuzzDecodeIndex exercises them.)
func ReadIndex(r io.Reader, size int64) (*Index, error) {
	var data []byte
	var err error
	if size < 0 {
		data, err = io.ReadAll(r)
	} else {
		data, err = readExactly(r, size)
	}
	if err != nil {
		return nil, err
	}
	if len(data) < len(persistMagic)+4+8+4 || string(data[:len(persistMagic)]) != persistMagic {
		return nil, fmt.Errorf("%w: no keyword index header", ErrCorrupt)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if v := binary.LittleEndian.Uint32(data[len(persistMagic):]); v != persistVersion {
		return nil, fmt.Errorf("%w: layout version %d, this build reads %d", ErrCorrupt, v, persistVersion)
	}
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch (truncated or damaged)", ErrCorrupt)
	}
	return decodeIndex(body[len(persistMagic)+4:])
}

// readExactly reads the size bytes left in r, refusing fewer or more.
func readExactly(r io.Reader, size int64) ([]byte, error) {
	if size > math.MaxInt32*int64(8) {
		return nil, fmt.Errorf("%w: %d bytes", ErrCorrupt, size)
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(r, data); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: truncated (%v)", ErrCorrupt, err)
		}
		return nil, err
	}
	if n, _ := r.Read(make([]byte, 1)); n > 0 {
		return nil, fmt.Errorf("%w: longer than %d bytes", ErrCorrupt, size)
	}
	return data, nil
}

// decodeIndex reads the strings and the parts (the data between the header
// and the checksum).
func decodeIndex(data []byte) (*Index, error) {
	d := &decoder{data: data}
	size := d.u64()
	if d.err == nil && size > uint64(len(d.data)-d.pos) {
		return nil, fmt.Errorf("%w: strings of %d bytes in %d", ErrCorrupt, size, len(d.data)-d.pos)
	}
	d.strs = string(d.take(int(size)))
	ix := &Index{}
	ix.decode(d)
	if d.err == nil && d.pos != len(d.data) {
		d.fail("%d bytes left over", len(d.data)-d.pos)
	}
	if d.err != nil {
		return nil, d.err
	}
	return ix, nil
}

// encode writes (or, in pass 1, visits the strings of) every part of ix.
// decode reads them back in the same order.
func (ix *Index) encode(e *encoder) {
	e.u32(uint32(ix.docs.Len()))
	for _, di := range ix.docs.All() {
		e.str(di.doc.Name)
		e.str(di.doc.Server)
		e.str(di.doc.Category)
		e.str(di.doc.Description)
		e.strList(di.doc.ParamNames)
		e.strList(di.doc.ParamDescs)
		e.str(di.paramNames)
		e.str(di.nameKey)
		e.str(di.server)
		e.str(di.category)
		e.i32(di.serverID)
		for _, ts := range di.terms {
			e.i32s(ts)
		}
	}
	e.u32(uint32(ix.termData.Len()))
	for _, ti := range ix.termData.All() {
		e.str(ti.text)
		e.postings(ti.postings)
		e.f32(ti.maxSat)
		e.i32s(ti.variants)
		e.postings(ti.srvPostings)
	}
	encodeMap(e, &ix.terms, e.str, e.i32)
	encodeMap(e, &ix.wordTerm, e.str, e.i32)
	encodeMap(e, &ix.wordDF, e.str, func(v int) { e.u64(uint64(v)) })
	encodeMap(e, &ix.pairs, e.u64, e.i32s)
	encodeMap(e, &ix.serverKey, e.str, e.i32)
	e.u32(uint32(ix.members.Len()))
	for _, m := range ix.members.All() {
		e.i32s(m)
	}
	e.u32(uint32(len(ix.srvSat)))
	for s, sats := range ix.srvSat {
		e.i32(s)
		e.u32(uint32(len(sats)))
		for t, sat := range sats {
			e.i32(t)
			e.f32(sat)
		}
	}
	g := ix.grams
	e.u32(uint32(len(g.list)))
	for k, l := range g.list {
		e.u32(k)
		e.i32(l)
	}
	e.i32s(g.offs)
	e.i32s(g.ids)
	encodeMap(e, &g.extra, e.u32, e.i32s)
	for f := range numFields {
		e.f64(ix.st.avg[f])
		e.f64(ix.st.srvAvg[f])
	}
	e.u32(uint32(len(ix.st.dict)))
	for w := range ix.st.dict {
		e.str(w)
	}
	e.u64(uint64(ix.changed))
	e.f64(ix.refSat)
}

// decode reads the parts encode wrote into ix, a new Index, and checks
// that they fit together.
func (ix *Index) decode(d *decoder) {
	n := d.count(4*8 + 4 + 4 + 4 + int(numFields)*4)
	docs := make([]docInfo, n)
	for id := range docs {
		di := &docs[id]
		di.doc.Name = d.str()
		di.doc.Server = d.str()
		di.doc.Category = d.str()
		di.doc.Description = d.str()
		di.doc.ParamNames = d.strList()
		di.doc.ParamDescs = d.strList()
		di.paramNames = d.str()
		di.nameKey = d.str()
		di.server = d.str()
		di.category = d.str()
		di.serverID = d.i32()
		for f := range di.terms {
			di.terms[f] = d.i32s()
		}
	}
	nt := d.count(4 + 4 + 4 + 4 + 4)
	terms := make([]termInfo, nt)
	for t := range terms {
		ti := &terms[t]
		ti.text = d.str()
		ti.postings = d.postings()
		ti.maxSat = d.f32()
		ti.variants = d.i32s()
		ti.srvPostings = d.postings()
	}
	ix.terms.base = decodeMap(d, 12, d.str, d.i32)
	ix.wordTerm.base = decodeMap(d, 12, d.str, d.i32)
	ix.wordDF.base = decodeMap(d, 16, d.str, func() int { return int(d.u64()) })
	ix.pairs.base = decodeMap(d, 12, d.u64, d.i32s)
	ix.serverKey.base = decodeMap(d, 12, d.str, d.i32)
	ns := d.count(4)
	members := make([][]int32, ns)
	for s := range members {
		members[s] = d.i32s()
	}
	if k := d.count(8); k > 0 {
		ix.srvSat = make(map[int32]map[int32]float32, k)
		ix.srvOver = make([]bool, ns)
		for range k {
			s := d.i32()
			sats := make(map[int32]float32)
			for range d.count(8) {
				t := d.i32()
				sats[t] = d.f32()
			}
			ix.srvSat[s] = sats
			if d.in(s, ns) {
				ix.srvOver[s] = true
			}
		}
	}
	g := &trigramIndex{}
	k := d.count(8)
	g.list = make(map[uint32]int32, k)
	for range k {
		k := d.u32()
		g.list[k] = d.i32()
	}
	g.offs = d.i32s()
	g.ids = d.i32s()
	g.extra.base = decodeMap(d, 8, d.u32, d.i32s)
	ix.grams = g
	st := &stats{dict: map[string]bool{}}
	for f := range numFields {
		st.avg[f] = d.f64()
		st.srvAvg[f] = d.f64()
	}
	for range d.count(8) {
		st.dict[d.str()] = true
	}
	st.dec = analysis.Decompound(func(w string) bool { return st.dict[w] })
	ix.st = st
	ix.changed = int(d.u64())
	ix.refSat = d.f64()
	if d.err != nil {
		return
	}

	// Every ID must be in range: a query indexes with them.
	for _, di := range docs {
		d.in(di.serverID, ns)
		for _, ts := range di.terms {
			d.allIn(ts, nt)
		}
	}
	for _, ti := range terms {
		for _, p := range ti.postings {
			d.in(p.doc, n)
		}
		for _, p := range ti.srvPostings {
			d.in(p.doc, ns)
		}
		d.allIn(ti.variants, nt)
	}
	for _, t := range ix.terms.base {
		d.in(t, nt)
	}
	for _, t := range ix.wordTerm.base {
		if t != -1 {
			d.in(t, nt)
		}
	}
	for _, ids := range ix.pairs.base {
		d.allIn(ids, n)
	}
	for _, s := range ix.serverKey.base {
		d.in(s, ns)
	}
	// Each tool is in exactly its server's list, which is ascending.
	listed := 0
	for s, ids := range members {
		for i, id := range ids {
			if !d.in(id, n) || docs[id].serverID != int32(s) || i > 0 && ids[i-1] >= id {
				d.fail("server %d's tool list does not match its tools", s)
				break
			}
		}
		listed += len(ids)
		if len(ids) > 0 {
			ix.numServers++
		}
	}
	if listed != n {
		d.fail("%d tools in server lists, %d tools", listed, n)
	}
	// An override changes a posting that exists (see updateServers).
	for s, sats := range ix.srvSat {
		for t := range sats {
			if !d.in(t, nt) {
				break
			}
			ps := terms[t].srvPostings
			if _, ok := slices.BinarySearchFunc(ps, s, func(p posting, s int32) int { return cmp.Compare(p.doc, s) }); !ok {
				d.fail("server %d's override of term %d has no posting", s, t)
			}
		}
	}
	if len(g.offs) != len(g.list)+1 || g.offs[0] != 0 || int(g.offs[len(g.offs)-1]) != len(g.ids) {
		d.fail("trigram offsets do not cover the lists")
	}
	for i := 1; i < len(g.offs); i++ {
		if g.offs[i] < g.offs[i-1] {
			d.fail("trigram offsets decrease")
		}
	}
	for _, l := range g.list {
		d.in(l, len(g.list))
	}
	// The trigram lists may hold tools removed since (see trigramIndex):
	// regex mode skips IDs ≥ Len.
	d.allIn(g.ids, math.MaxInt32)
	for _, ids := range g.extra.base {
		d.allIn(ids, math.MaxInt32)
	}
	if d.err != nil {
		return
	}

	ix.docs = pvec.Of(docs)
	ix.termData = pvec.Of(terms)
	ix.members = pvec.Of(members)
	// The sorted vocabularies are their maps' keys, as a build makes them.
	ix.sortedTerms.base = slices.Sorted(maps.Keys(ix.terms.base))
	ix.words.base = slices.Sorted(maps.Keys(ix.wordTerm.base))
	ix.groupWordsByLen()
	// The name maps come from the documents, as a build makes them.
	ix.byName.direct, ix.byLower.direct, ix.dups.direct = true, true, true
	for id := range docs {
		ix.addName(docs[id].doc.Name, int32(id))
	}
	ix.finish()
}

// encodeMap writes an omap's entries: their number, then each key and
// value.
func encodeMap[K comparable, V any](e *encoder, m *omap[K, V], key func(K), val func(V)) {
	e.u32(uint32(m.len()))
	for k, v := range m.all() {
		key(k)
		val(v)
	}
}

// decodeMap reads what encodeMap wrote, as a map; minEntry is the fewest
// bytes an entry takes (to refuse a count the data cannot hold).
func decodeMap[K comparable, V any](d *decoder, minEntry int, key func() K, val func() V) map[K]V {
	k := d.count(minEntry)
	m := make(map[K]V, k)
	for range k {
		kk := key()
		m[kk] = val()
	}
	return m
}

// encoder writes the parts of an index. With w nil it only collects the
// distinct strings (pass 1).
type encoder struct {
	w   io.Writer
	crc hash.Hash32
	n   int64
	err error
	buf []byte

	strs  map[string]uint32 // string → offset
	order []string          // the strings in offset order
	size  int               // their total length
}

func (e *encoder) write(b []byte) {
	if e.err != nil || e.w == nil {
		return
	}
	e.crc.Write(b)
	n, err := e.w.Write(b)
	e.n += int64(n)
	e.err = err
}

// flushAt writes the buffered bytes once they reach size bytes.
func (e *encoder) flushAt(size int) {
	if len(e.buf) >= size {
		e.write(e.buf)
		e.buf = e.buf[:0]
	}
}

func (e *encoder) bytes(b []byte) {
	e.flushAt(0)
	e.write(b)
}

func (e *encoder) u32(v uint32) {
	if e.w == nil {
		return
	}
	e.buf = binary.LittleEndian.AppendUint32(e.buf, v)
	e.flushAt(1 << 16)
}

func (e *encoder) u64(v uint64) {
	if e.w == nil {
		return
	}
	e.buf = binary.LittleEndian.AppendUint64(e.buf, v)
	e.flushAt(1 << 16)
}

func (e *encoder) i32(v int32)   { e.u32(uint32(v)) }
func (e *encoder) f32(v float32) { e.u32(math.Float32bits(v)) }
func (e *encoder) f64(v float64) { e.u64(math.Float64bits(v)) }

func (e *encoder) i32s(vs []int32) {
	e.u32(uint32(len(vs)))
	for _, v := range vs {
		e.i32(v)
	}
}

func (e *encoder) postings(ps []posting) {
	e.u32(uint32(len(ps)))
	for _, p := range ps {
		e.i32(p.doc)
		e.f32(p.sat)
	}
}

// str writes a string as its offset and length in the strings (pass 1:
// adds it to them).
func (e *encoder) str(s string) {
	if e.w == nil {
		if _, ok := e.strs[s]; !ok && e.err == nil {
			if uint64(e.size)+uint64(len(s)) > math.MaxUint32 {
				e.err = errors.New("fallback: the index's strings exceed 4 GiB, which the saved layout cannot address")
				return
			}
			e.strs[s] = uint32(e.size)
			e.order = append(e.order, s)
			e.size += len(s)
		}
		return
	}
	e.u32(e.strs[s])
	e.u32(uint32(len(s)))
}

func (e *encoder) strList(ss []string) {
	e.u32(uint32(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

// decoder reads the parts of an index from data. Its first error sticks:
// later reads return zero values, so decode checks once at the end.
type decoder struct {
	data []byte
	pos  int
	strs string // the strings, which every decoded string is part of
	err  error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
}

// take returns the next n bytes, or nil (and fails) if there are fewer.
func (d *decoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.data)-d.pos {
		d.fail("truncated at byte %d", d.pos)
		return nil
	}
	b := d.data[d.pos : d.pos+n]
	d.pos += n
	return b
}

func (d *decoder) u32() uint32 {
	if b := d.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if b := d.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (d *decoder) i32() int32   { return int32(d.u32()) }
func (d *decoder) f32() float32 { return math.Float32frombits(d.u32()) }
func (d *decoder) f64() float64 { return math.Float64frombits(d.u64()) }

// count reads a number of items of at least minSize bytes each, refusing
// one the remaining data cannot hold (so no huge allocation on bad data).
func (d *decoder) count(minSize int) int {
	k := int(d.u32())
	if d.err == nil && k > (len(d.data)-d.pos)/minSize {
		d.fail("%d items of at least %d bytes in the %d bytes left", k, minSize, len(d.data)-d.pos)
	}
	if d.err != nil {
		return 0
	}
	return k
}

// i32s reads a list written by encoder.i32s. Its capacity is its length,
// so an append by Apply never writes into data another list could share.
func (d *decoder) i32s() []int32 {
	k := d.count(4)
	if k == 0 {
		return nil
	}
	b := d.take(4 * k)
	out := make([]int32, k)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func (d *decoder) postings() []posting {
	k := d.count(8)
	if k == 0 {
		return nil
	}
	b := d.take(8 * k)
	out := make([]posting, k)
	for i := range out {
		out[i] = posting{doc: int32(binary.LittleEndian.Uint32(b[8*i:])), sat: math.Float32frombits(binary.LittleEndian.Uint32(b[8*i+4:]))}
	}
	return out
}

func (d *decoder) str() string {
	off, n := d.u32(), d.u32()
	if d.err != nil {
		return ""
	}
	if uint64(off)+uint64(n) > uint64(len(d.strs)) {
		d.fail("string at %d of %d bytes past the strings' end", off, n)
		return ""
	}
	return d.strs[off : off+n]
}

func (d *decoder) strList() []string {
	k := d.count(8)
	if k == 0 {
		return nil
	}
	out := make([]string, k)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

// in checks 0 ≤ id < n.
func (d *decoder) in(id int32, n int) bool {
	if id < 0 || int(id) >= n {
		d.fail("ID %d out of range [0, %d)", id, n)
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

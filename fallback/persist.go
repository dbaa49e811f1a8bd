package fallback

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"

	"github.com/toolsearch/toolsearch/analysis"
	"github.com/toolsearch/toolsearch/internal/binfmt"
	"github.com/toolsearch/toolsearch/internal/pvec"
)

// An Index can be saved (WriteTo) and read back (ReadIndex), so that a
// restart over an unchanged catalog loads its keyword index instead of
// analysing every tool again: at 300k tools the build takes about 6 s on two
// cores and the load about 1 s (docs/benchmarks.md).
//
// The layout, all integers little-endian (internal/binfmt):
//
//	magic "toolsearch-keyword\n", version (u32)
//	strings: their total length (u64) and bytes, each string once
//	the sections of the index, in the order of the sections table below;
//	a string is its offset and length in the strings (u32 each)
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
// whenever the layout or the meaning of a section changes.
const (
	persistMagic   = "toolsearch-keyword\n"
	persistVersion = 3
)

// ErrCorrupt is wrapped by ReadIndex's errors about the content of the
// data (as opposed to errors reading it).
var ErrCorrupt = errors.New("not a valid saved keyword index")

// A section is one part of a saved index: how it is written, read back
// into a loader, and checked once every section is read (so that a
// damaged file does not make an index that panics: the checks are those
// every query and Apply rely on; FuzzDecodeIndex exercises them). Each
// section's three functions sit side by side below, so a field added to
// the writer is added to the reader in the same place; a change of layout
// raises persistVersion, so that an older file is rebuilt, never misread.
type section struct {
	write func(*Index, *encoder)
	read  func(*loader)
	check func(*loader) // nil: nothing to check
}

// sections lists the parts of a saved index in their order in the file.
var sections = []section{
	{writeDocs, readDocs, checkDocs},
	{writeTerms, readTerms, checkTerms},
	{writeTermMap, readTermMap, checkTermMap},
	{writeWordTerms, readWordTerms, checkWordTerms},
	{writeWordDF, readWordDF, nil},
	{writePairs, readPairs, checkPairs},
	{writeServerKeys, readServerKeys, checkServerKeys},
	{writeMembers, readMembers, checkMembers},
	{writeServerSats, readServerSats, checkServerSats},
	{writeTrigrams, readTrigrams, checkTrigrams},
	{writeStats, readStats, nil},
	{writeCounters, readCounters, nil},
}

// WriteTo writes the index in the layout above. It reads the index only, so
// it is safe to call while others search it.
func (ix *Index) WriteTo(w io.Writer) (int64, error) {
	if ix.st == nil {
		ix = NewIndex(nil) // the zero value: an empty index
	}
	// Pass 1 collects the distinct strings, pass 2 writes them and then the
	// sections, referring to them.
	strs := newStringTable()
	dry := &encoder{strs: strs}
	for _, s := range sections {
		s.write(ix, dry)
	}
	if strs.err != nil {
		return 0, strs.err
	}
	e := &encoder{Writer: binfmt.NewWriter(w), strs: strs}
	e.Header(persistMagic, persistVersion)
	e.U64(uint64(strs.size))
	for _, s := range strs.order {
		e.Raw([]byte(s))
	}
	for _, s := range sections {
		s.write(ix, e)
	}
	return e.Finish()
}

// ReadIndex reads an index written by WriteTo from r, whose remaining
// length is size bytes when known (a file's size less what was read of it),
// or -1: with the size the data is read into one buffer of that size, which
// at a million tools saves several seconds of copying a growing one. Data of
// another layout version, truncated, longer than size, or failing its
// checksum is refused with an error wrapping ErrCorrupt; so is data whose
// sections do not fit together (an ID out of range, a tool missing from its
// server's list, a server override without its posting).
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
	h := binfmt.NewBytesReader(data, ErrCorrupt)
	if len(data) < len(persistMagic)+4+8+4 || !h.Magic(persistMagic) {
		return nil, fmt.Errorf("%w: no keyword index header", ErrCorrupt)
	}
	if v := h.U32(); v != persistVersion {
		return nil, fmt.Errorf("%w: layout version %d, this build reads %d", ErrCorrupt, v, persistVersion)
	}
	body, ok := binfmt.SplitTrailer(data)
	if !ok {
		return nil, fmt.Errorf("%w: checksum mismatch (truncated or damaged)", ErrCorrupt)
	}
	return decodeIndex(body[h.Offset():])
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

// decodeIndex reads the strings and the sections (the data between the
// header and the checksum), checks them, and makes the index.
func decodeIndex(data []byte) (*Index, error) {
	d := &decoder{Reader: binfmt.NewBytesReader(data, ErrCorrupt)}
	size := d.U64()
	if left := d.Remaining(); d.Err() == nil && size > uint64(left) {
		return nil, fmt.Errorf("%w: strings of %d bytes in %d", ErrCorrupt, size, left)
	}
	d.strs = string(d.Bytes(int(size)))
	l := &loader{decoder: d, ix: &Index{}}
	for _, s := range sections {
		s.read(l)
	}
	if left := d.Remaining(); d.Err() == nil && left != 0 {
		d.Failf("%d bytes left over", left)
	}
	for _, s := range sections {
		if d.Err() != nil {
			return nil, d.Err()
		}
		if s.check != nil {
			s.check(l)
		}
	}
	if d.Err() != nil {
		return nil, d.Err()
	}
	l.finish()
	return l.ix, nil
}

// loader is a saved index being read: the Index, and the per-ID parts that
// become its persistent vectors once every section is read and checked.
type loader struct {
	*decoder
	ix      *Index
	docs    []docInfo
	terms   []termInfo
	members [][]int32
}

// finish makes the index from checked sections: the parts kept as read,
// and those a build derives, derived the same way.
func (l *loader) finish() {
	ix := l.ix
	ix.docs = pvec.Of(l.docs)
	ix.termData = pvec.Of(l.terms)
	ix.members = pvec.Of(l.members)
	// The sorted vocabularies are their maps' keys, as a build makes them.
	ix.sortedTerms.base = slices.Sorted(maps.Keys(ix.terms.base))
	ix.words.base = slices.Sorted(maps.Keys(ix.wordTerm.base))
	ix.groupWordsByLen()
	// The name maps come from the documents, as a build makes them.
	ix.byName.direct, ix.byLower.direct, ix.dups.direct = true, true, true
	for id := range l.docs {
		ix.addName(l.docs[id].doc.Name, int32(id))
	}
	ix.finish()
}

// Section docs: per tool, its document as given and what the index keeps
// of it (docInfo).

func writeDocs(ix *Index, e *encoder) {
	e.U32(uint32(ix.docs.Len()))
	for _, di := range ix.docs.All() {
		e.str(di.doc.Name)
		e.str(di.doc.Server)
		e.str(di.doc.Category)
		e.str(di.doc.Description)
		e.strList(di.doc.ParamNames)
		e.strList(di.doc.ParamDescs)
		e.str(di.doc.Keywords)
		e.str(di.paramNames)
		e.str(di.nameKey)
		e.str(di.server)
		e.str(di.category)
		e.I32(di.serverID)
		for _, ts := range di.terms {
			e.Int32List(ts)
		}
	}
}

func readDocs(l *loader) {
	l.docs = make([]docInfo, l.Count(4*8+4+4+4+int(numFields)*4))
	for id := range l.docs {
		di := &l.docs[id]
		di.doc.Name = l.str()
		di.doc.Server = l.str()
		di.doc.Category = l.str()
		di.doc.Description = l.str()
		di.doc.ParamNames = l.strList()
		di.doc.ParamDescs = l.strList()
		di.doc.Keywords = l.str()
		di.paramNames = l.str()
		di.nameKey = l.str()
		di.server = l.str()
		di.category = l.str()
		di.serverID = l.I32()
		for f := range di.terms {
			di.terms[f] = l.Int32List()
		}
	}
}

func checkDocs(l *loader) {
	for _, di := range l.docs {
		l.in(di.serverID, len(l.members))
		for _, ts := range di.terms {
			l.allIn(ts, len(l.terms))
		}
	}
}

// Section terms: per term ID, its text, postings, variants and server
// postings (termInfo).

func writeTerms(ix *Index, e *encoder) {
	e.U32(uint32(ix.termData.Len()))
	for _, ti := range ix.termData.All() {
		e.str(ti.text)
		e.postings(ti.postings)
		e.F32(ti.maxSat)
		e.Int32List(ti.variants)
		e.postings(ti.srvPostings)
	}
}

func readTerms(l *loader) {
	l.terms = make([]termInfo, l.Count(4+4+4+4+4))
	for t := range l.terms {
		ti := &l.terms[t]
		ti.text = l.str()
		ti.postings = l.postings()
		ti.maxSat = l.F32()
		ti.variants = l.Int32List()
		ti.srvPostings = l.postings()
	}
}

func checkTerms(l *loader) {
	for _, ti := range l.terms {
		for _, p := range ti.postings {
			l.in(p.doc, len(l.docs))
		}
		for _, p := range ti.srvPostings {
			l.in(p.doc, len(l.members))
		}
		l.allIn(ti.variants, len(l.terms))
	}
}

// Section term map: analyzed term → term ID.

func writeTermMap(ix *Index, e *encoder) { writeMap(e, &ix.terms, e.str, e.I32) }
func readTermMap(l *loader)              { l.ix.terms.base = readMap(l.decoder, 12, l.str, l.I32) }
func checkTermMap(l *loader) {
	for _, t := range l.ix.terms.base {
		l.in(t, len(l.terms))
	}
}

// Section word terms: surface word → term ID (-1: a stop word).

func writeWordTerms(ix *Index, e *encoder) { writeMap(e, &ix.wordTerm, e.str, e.I32) }
func readWordTerms(l *loader)              { l.ix.wordTerm.base = readMap(l.decoder, 12, l.str, l.I32) }
func checkWordTerms(l *loader) {
	for _, t := range l.ix.wordTerm.base {
		if t != -1 {
			l.in(t, len(l.terms))
		}
	}
}

// Section word DF: surface word → number of tools using it.

func writeWordDF(ix *Index, e *encoder) {
	writeMap(e, &ix.wordDF, e.str, func(v int) { e.U64(uint64(v)) })
}

func readWordDF(l *loader) {
	l.ix.wordDF.base = readMap(l.decoder, 16, l.str, func() int { return int(l.U64()) })
}

// Section pairs: adjacent term pair → the tools that have it.

func writePairs(ix *Index, e *encoder) { writeMap(e, &ix.pairs, e.U64, e.Int32List) }
func readPairs(l *loader)              { l.ix.pairs.base = readMap(l.decoder, 12, l.U64, l.Int32List) }
func checkPairs(l *loader) {
	for _, ids := range l.ix.pairs.base {
		l.allIn(ids, len(l.docs))
	}
}

// Section server keys: server key → server ID.

func writeServerKeys(ix *Index, e *encoder) { writeMap(e, &ix.serverKey, e.str, e.I32) }
func readServerKeys(l *loader)              { l.ix.serverKey.base = readMap(l.decoder, 12, l.str, l.I32) }
func checkServerKeys(l *loader) {
	for _, s := range l.ix.serverKey.base {
		l.in(s, len(l.members))
	}
}

// Section members: per server ID, its tools, ascending.

func writeMembers(ix *Index, e *encoder) {
	e.U32(uint32(ix.members.Len()))
	for _, m := range ix.members.All() {
		e.Int32List(m)
	}
}

func readMembers(l *loader) {
	l.members = make([][]int32, l.Count(4))
	for s := range l.members {
		l.members[s] = l.Int32List()
	}
}

// checkMembers checks that each tool is in exactly its server's list,
// which is ascending, and counts the servers with tools.
func checkMembers(l *loader) {
	listed := 0
	for s, ids := range l.members {
		for i, id := range ids {
			if !l.in(id, len(l.docs)) || l.docs[id].serverID != int32(s) || i > 0 && ids[i-1] >= id {
				l.Failf("server %d's tool list does not match its tools", s)
				break
			}
		}
		listed += len(ids)
		if len(ids) > 0 {
			l.ix.numServers++
		}
	}
	if listed != len(l.docs) {
		l.Failf("%d tools in server lists, %d tools", listed, len(l.docs))
	}
}

// Section server sats: the servers' overridden sats (srvSat; srvOver
// follows from it).

func writeServerSats(ix *Index, e *encoder) {
	e.U32(uint32(len(ix.srvSat)))
	for s, sats := range ix.srvSat {
		e.I32(s)
		e.U32(uint32(len(sats)))
		for t, sat := range sats {
			e.I32(t)
			e.F32(sat)
		}
	}
}

func readServerSats(l *loader) {
	k := l.Count(8)
	if k == 0 {
		return
	}
	ix := l.ix
	ix.srvSat = make(map[int32]map[int32]float32, k)
	ix.srvOver = make([]bool, len(l.members))
	for range k {
		s := l.I32()
		sats := make(map[int32]float32)
		for range l.Count(8) {
			t := l.I32()
			sats[t] = l.F32()
		}
		ix.srvSat[s] = sats
		if l.in(s, len(l.members)) {
			ix.srvOver[s] = true
		}
	}
}

// checkServerSats checks that an override changes a posting that exists
// (see updateServers).
func checkServerSats(l *loader) {
	for s, sats := range l.ix.srvSat {
		for t := range sats {
			if !l.in(t, len(l.terms)) {
				break
			}
			ps := l.terms[t].srvPostings
			if _, ok := slices.BinarySearchFunc(ps, s, func(p posting, s int32) int { return cmp.Compare(p.doc, s) }); !ok {
				l.Failf("server %d's override of term %d has no posting", s, t)
			}
		}
	}
}

// Section trigrams: the regex index (trigramIndex).

func writeTrigrams(ix *Index, e *encoder) {
	g := ix.grams
	e.U32(uint32(len(g.list)))
	for k, l := range g.list {
		e.U32(k)
		e.I32(l)
	}
	e.Int32List(g.offs)
	e.Int32List(g.ids)
	writeMap(e, &g.extra, e.U32, e.Int32List)
}

func readTrigrams(l *loader) {
	g := &trigramIndex{}
	k := l.Count(8)
	g.list = make(map[uint32]int32, k)
	for range k {
		k := l.U32()
		g.list[k] = l.I32()
	}
	g.offs = l.Int32List()
	g.ids = l.Int32List()
	g.extra.base = readMap(l.decoder, 8, l.U32, l.Int32List)
	l.ix.grams = g
}

func checkTrigrams(l *loader) {
	g := l.ix.grams
	if len(g.offs) != len(g.list)+1 || g.offs[0] != 0 || int(g.offs[len(g.offs)-1]) != len(g.ids) {
		l.Failf("trigram offsets do not cover the lists")
	}
	for i := 1; i < len(g.offs); i++ {
		if g.offs[i] < g.offs[i-1] {
			l.Failf("trigram offsets decrease")
		}
	}
	for _, n := range g.list {
		l.in(n, len(g.list))
	}
	// The trigram lists may hold tools removed since (see trigramIndex):
	// regex mode skips IDs ≥ Len.
	l.allIn(g.ids, math.MaxInt32)
	for _, ids := range g.extra.base {
		l.allIn(ids, math.MaxInt32)
	}
}

// Section stats: the statistics frozen at the last full build (the
// decompounder follows from the dictionary).

func writeStats(ix *Index, e *encoder) {
	for f := range numFields {
		e.F64(ix.st.avg[f])
		e.F64(ix.st.srvAvg[f])
	}
	e.U32(uint32(len(ix.st.dict)))
	for w := range ix.st.dict {
		e.str(w)
	}
}

func readStats(l *loader) {
	st := &stats{dict: map[string]bool{}}
	for f := range numFields {
		st.avg[f] = l.F64()
		st.srvAvg[f] = l.F64()
	}
	for range l.Count(8) {
		st.dict[l.str()] = true
	}
	st.dec = analysis.Decompound(func(w string) bool { return st.dict[w] })
	l.ix.st = st
}

// Section counters: the tools changed since the last full build, and the
// reference sat.

func writeCounters(ix *Index, e *encoder) {
	e.U64(uint64(ix.changed))
	e.F64(ix.refSat)
}

func readCounters(l *loader) {
	l.ix.changed = int(l.U64())
	l.ix.refSat = l.F64()
}

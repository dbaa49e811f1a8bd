package vectorindex

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand"
	"unsafe"

	"github.com/toolsearch/toolsearch/internal/binfmt"
)

// The saved form of an HNSW index (WriteTo, ReadHNSW), little-endian
// (internal/binfmt):
//
//	magic "TSHNSW\x00\x00", format version (uint32)
//	head: dim, M, EfConstruction, EfSearch, ExactLimit (uint32 each), Seed (int64)
//	      Quantization (uint32; version 2 on, absent in version 1: float32)
//	      slots, entry (int32, -1: no graph), top, linked (uint32), levels drawn (uint64, = linked)
//	per slot: ID (int64), deleted (byte),
//	          vector: dim float32, or with QuantizeInt8 its scale (float32) and dim int8 codes,
//	          layers (uint32; 0: not linked), per layer: links (uint32), slots (int32 each)
//	CRC-32C of everything above (uint32)
//
// ReadHNSW reads versions 1 and 2; WriteTo writes version 2. Each part's
// writer and reader sit side by side below (head, slot).
//
// Everything read is checked (bounds, links to existing slots, finite
// vectors, the checksum), so a truncated or corrupt file is an error,
// never a panic or an index that misbehaves later.
const (
	persistMagic = "TSHNSW\x00\x00"
	// persistVersion is the format version WriteTo writes; ReadHNSW
	// rejects versions it does not know. Bump it on any change to the
	// layout above, and keep reading the older ones (or reject them with
	// ErrCorrupt, which makes the engine rebuild with a log line).
	persistVersion = 2
	// maxPersistDim bounds the dimension ReadHNSW accepts (embedding models
	// have at most a few thousand), so a corrupt header cannot make it
	// allocate gigabytes per vector.
	maxPersistDim = 1 << 16
)

// ErrCorrupt is returned (wrapped with what was wrong) by ReadHNSW for
// input that is not an index this package wrote: bad magic, a format
// version it does not read, inconsistent contents, a checksum mismatch or
// truncation. Callers branch on it with errors.Is (e.g. to rebuild).
var ErrCorrupt = errors.New("corrupt saved index")

// WriteTo writes the index (configuration, vectors, graph and the state of
// the level generator) to w in the format ReadHNSW reads, and returns the
// number of bytes written. It holds the read lock: searches continue,
// writers wait. A saved index costs about dim·4 + 8·M·4 bytes per vector.
func (ix *HNSW) WriteTo(w io.Writer) (int64, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	bw := binfmt.NewWriter(w)
	bw.Header(persistMagic, persistVersion)
	ix.writeHead(bw)
	for s := range ix.ids {
		ix.writeSlot(bw, int32(s))
	}
	return bw.Finish()
}

// ReadHNSW reads an index that WriteTo wrote. The result is the same index:
// the same searches give the same results, and further Adds build what
// they would have built on the original. Input that is not such an index
// (another format version, truncated, altered) returns an error wrapping
// ErrCorrupt; a read error of r is returned wrapped as it is.
func ReadHNSW(r io.Reader) (*HNSW, error) {
	br := binfmt.NewReader(r, ErrCorrupt)
	magic := br.Magic(persistMagic)
	if br.Err() != nil {
		return nil, br.Err()
	}
	if !magic {
		return nil, corrupt("not a saved HNSW index")
	}
	version := br.U32()
	if br.Err() == nil && (version < 1 || version > persistVersion) {
		return nil, corrupt("format version %d, this build reads 1 to %d", version, persistVersion)
	}
	h := readHead(br, version)
	if br.Err() != nil {
		return nil, br.Err()
	}
	if err := h.check(); err != nil {
		return nil, err
	}
	ix := NewHNSW(h.dim, HNSWConfig{M: h.m, EfConstruction: h.efc, EfSearch: h.efs, ExactLimit: h.exact, Seed: h.seed, Quantization: h.quant})
	if ix.cfg.M != h.m || ix.cfg.EfConstruction != h.efc || ix.cfg.EfSearch != h.efs {
		return nil, corrupt("configuration M %d, EfConstruction %d, EfSearch %d", h.m, h.efc, h.efs)
	}
	// Slices grow as slots are read, not from the declared count, so a
	// corrupt count cannot allocate more than the input holds.
	sr := newSlotReader(br, ix)
	for s := range h.slots {
		if err := sr.read(int32(s)); err != nil {
			return nil, err
		}
	}
	if err := ix.checkGraph(h, sr.linked); err != nil {
		return nil, err
	}
	br.Checksum()
	if br.Err() != nil {
		return nil, br.Err()
	}
	ix.entry, ix.top, ix.linked = h.entry, h.top, h.linked
	// Linked slots were checked against the slots actually read, so this
	// loop is bounded by the input's size.
	ix.rng = rand.New(rand.NewSource(h.seed))
	for range h.draws {
		ix.rng.Float64()
	}
	ix.draws = h.draws
	return ix, nil
}

// corrupt returns an error wrapping ErrCorrupt.
func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// head is the saved configuration and graph state, after the version.
type head struct {
	dim, m, efc, efs, exact int
	seed                    int64
	quant                   Quantization
	slots                   int
	entry                   int32
	top, linked             int
	draws                   uint64
}

func (ix *HNSW) writeHead(w *binfmt.Writer) {
	for _, v := range []int{ix.dim, ix.cfg.M, ix.cfg.EfConstruction, ix.cfg.EfSearch, ix.cfg.ExactLimit} {
		w.U32(uint32(v))
	}
	w.I64(ix.cfg.Seed)
	w.U32(uint32(ix.cfg.Quantization))
	w.U32(uint32(len(ix.ids)))
	w.I32(ix.entry)
	w.U32(uint32(ix.top))
	w.U32(uint32(ix.linked))
	w.U64(ix.draws)
}

func readHead(r *binfmt.Reader, version uint32) head {
	var h head
	h.dim, h.m, h.efc, h.efs, h.exact = int(r.U32()), int(r.U32()), int(r.U32()), int(r.U32()), int(r.I32())
	h.seed = r.I64()
	h.quant = QuantizeNone
	if version >= 2 {
		h.quant = Quantization(r.U32())
	}
	h.slots, h.entry, h.top, h.linked = int(r.U32()), r.I32(), int(r.U32()), int(r.U32())
	h.draws = r.U64()
	return h
}

// check refuses a head that no index has (or that would make ReadHNSW
// allocate without bound).
func (h head) check() error {
	switch {
	case h.dim <= 0 || h.dim > maxPersistDim:
		return corrupt("dimension %d", h.dim)
	case h.m < 2 || h.m > 1<<12 || h.efc < h.m || h.efc > 1<<20 || h.efs > 1<<20:
		return corrupt("configuration M %d, EfConstruction %d, EfSearch %d", h.m, h.efc, h.efs)
	case h.slots < 0 || h.slots > math.MaxInt32 || h.linked > h.slots:
		return corrupt("%d slots, %d linked", h.slots, h.linked)
	case h.entry < -1 || int(h.entry) >= h.slots || h.top > maxLevel:
		return corrupt("entry point %d at level %d of %d slots", h.entry, h.top, h.slots)
	case h.draws != uint64(h.linked): // one level is drawn per linked slot
		return corrupt("%d levels drawn for %d linked slots", h.draws, h.linked)
	case h.quant != QuantizeNone && h.quant != QuantizeInt8:
		return corrupt("quantization %d", h.quant)
	}
	return nil
}

// writeSlot writes slot s: its ID, tombstone, vector and links.
func (ix *HNSW) writeSlot(w *binfmt.Writer, s int32) {
	w.I64(int64(ix.ids[s]))
	if ix.deleted[s] {
		w.U8(1)
	} else {
		w.U8(0)
	}
	if ix.cfg.Quantization == QuantizeInt8 {
		w.F32(ix.scales[s])
		w.Raw(int8Bytes(ix.code(s)))
	} else {
		w.Float32s(ix.vec(s))
	}
	w.U32(uint32(len(ix.links[s])))
	for _, layer := range ix.links[s] {
		w.Int32List(layer)
	}
}

// slotReader reads slots into ix, reusing one vector's buffers.
type slotReader struct {
	r      *binfmt.Reader
	ix     *HNSW
	vec    []float32
	codes  []int8
	linked int // slots read that are linked
}

func newSlotReader(r *binfmt.Reader, ix *HNSW) *slotReader {
	return &slotReader{r: r, ix: ix, vec: make([]float32, ix.dim), codes: make([]int8, ix.dim)}
}

// read reads slot s, which writeSlot wrote, and appends it to the index.
func (sr *slotReader) read(s int32) error {
	r, ix := sr.r, sr.ix
	quant := ix.cfg.Quantization
	id := int(r.I64())
	del := r.U8()
	var scale float32
	if quant == QuantizeInt8 {
		scale = r.F32()
		copy(int8Bytes(sr.codes), r.Bytes(len(sr.codes)))
	} else {
		r.Float32s(sr.vec)
	}
	layers := int(r.U32())
	if r.Err() != nil {
		return r.Err()
	}
	if del > 1 || layers > maxLevel+1 {
		return corrupt("slot %d: deleted flag %d, %d layers", s, del, layers)
	}
	if quant == QuantizeInt8 {
		if err := checkCodes(sr.codes, scale); err != nil {
			return corrupt("slot %d: %v", s, err)
		}
	} else if err := checkVector(sr.vec, ix.dim, fmt.Sprintf("slot %d", s)); err != nil {
		return corrupt("%v", err)
	}
	prev, had := ix.slot[id]
	if had && del == 0 {
		return corrupt("slot %d: ID %d is live twice", s, id)
	}
	if quant == QuantizeInt8 {
		ix.appendCodes(id, sr.codes, scale)
	} else {
		ix.append(id, sr.vec)
	}
	if del == 1 { // a tombstone: keep the map's live slot of id, if any
		ix.deleted[s] = true
		ix.nDeleted++
		if had {
			ix.slot[id] = prev
		} else {
			delete(ix.slot, id)
		}
	}
	if layers > 0 {
		sr.linked++
		ix.links[s] = make([][]int32, layers)
	}
	for l := range layers {
		n := int(r.U32())
		if r.Err() != nil {
			return r.Err()
		}
		if n > ix.maxLinks(l) {
			return corrupt("slot %d layer %d: %d links, at most %d", s, l, n, ix.maxLinks(l))
		}
		links := make([]int32, n, ix.maxLinks(l)+1)
		r.Int32s(links)
		if r.Err() != nil {
			return r.Err()
		}
		ix.links[s][l] = links
	}
	return nil
}

// checkGraph checks the graph read under h: links only to slots that
// exist and reach that layer, as many linked slots as h says, and the
// entry point at the top level.
func (ix *HNSW) checkGraph(h head, linked int) error {
	for s, layers := range ix.links {
		for l, links := range layers {
			for _, n := range links {
				if n < 0 || int(n) >= len(ix.links) {
					return corrupt("slot %d layer %d: link to slot %d of %d", s, l, n, len(ix.links))
				}
				if l >= len(ix.links[n]) {
					return corrupt("slot %d layer %d: link to slot %d, which has %d layers", s, l, n, len(ix.links[n]))
				}
			}
		}
	}
	switch {
	case linked != h.linked:
		return corrupt("%d slots linked, header says %d", linked, h.linked)
	case h.entry < 0 && h.linked > 0, h.entry >= 0 && len(ix.links[h.entry]) != h.top+1:
		return corrupt("entry point %d at level %d", h.entry, h.top)
	}
	return nil
}

// int8Bytes is c's memory as bytes (no copy).
func int8Bytes(c []int8) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(c))), len(c))
}

package vectorindex

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"math/rand"
	"unsafe"
)

// The saved form of an HNSW index (WriteTo, ReadHNSW), little-endian:
//
//	magic "TSHNSW\x00\x00", format version (uint32)
//	dim, M, EfConstruction, EfSearch, ExactLimit (uint32 each), Seed (int64)
//	Quantization (uint32; version 2 on, absent in version 1: float32)
//	slots, entry (int32, -1: no graph), top, linked (uint32), levels drawn (uint64, = linked)
//	per slot: ID (int64), deleted (byte),
//	          vector: dim float32, or with QuantizeInt8 its scale (float32) and dim int8 codes,
//	          layers (uint32; 0: not linked), per layer: links (uint32), slots (int32 each)
//	CRC-32C of everything above (uint32)
//
// ReadHNSW reads versions 1 and 2; WriteTo writes version 2.
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

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// WriteTo writes the index (configuration, vectors, graph and the state of
// the level generator) to w in the format ReadHNSW reads, and returns the
// number of bytes written. It holds the read lock: searches continue,
// writers wait. A saved index costs about dim·4 + 8·M·4 bytes per vector.
func (ix *HNSW) WriteTo(w io.Writer) (int64, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	cw := &countWriter{w: bufio.NewWriterSize(w, 1<<16), crc: crc32.New(castagnoli)}
	cw.bytes([]byte(persistMagic))
	cw.u32(persistVersion)
	for _, v := range []int{ix.dim, ix.cfg.M, ix.cfg.EfConstruction, ix.cfg.EfSearch, ix.cfg.ExactLimit} {
		cw.u32(uint32(v))
	}
	cw.u64(uint64(ix.cfg.Seed))
	cw.u32(uint32(ix.cfg.Quantization))
	cw.u32(uint32(len(ix.ids)))
	cw.u32(uint32(ix.entry))
	cw.u32(uint32(ix.top))
	cw.u32(uint32(ix.linked))
	cw.u64(ix.draws)
	for s, id := range ix.ids {
		cw.u64(uint64(id))
		if ix.deleted[s] {
			cw.bytes([]byte{1})
		} else {
			cw.bytes([]byte{0})
		}
		if ix.cfg.Quantization == QuantizeInt8 {
			cw.u32(math.Float32bits(ix.scales[s]))
			c := ix.code(int32(s))
			cw.bytes(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(c))), len(c)))
		} else {
			b := cw.scratch[:0]
			for _, x := range ix.vec(int32(s)) {
				b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
			}
			cw.scratch = b
			cw.bytes(b)
		}
		cw.u32(uint32(len(ix.links[s])))
		for _, layer := range ix.links[s] {
			b := binary.LittleEndian.AppendUint32(cw.scratch[:0], uint32(len(layer)))
			for _, n := range layer {
				b = binary.LittleEndian.AppendUint32(b, uint32(n))
			}
			cw.scratch = b
			cw.bytes(b)
		}
	}
	sum := cw.crc.Sum32()
	cw.crc = nil
	cw.u32(sum)
	if cw.err == nil {
		cw.err = cw.w.(*bufio.Writer).Flush()
	}
	return cw.n, cw.err
}

// countWriter writes little-endian values, counting bytes, hashing them,
// and keeping the first error. Whole vectors and link lists are encoded
// into scratch and written at once: hashing 4 bytes at a time cost most of
// the time of saving.
type countWriter struct {
	w       io.Writer
	crc     hash.Hash32
	n       int64
	err     error
	buf     [8]byte
	scratch []byte
}

func (c *countWriter) bytes(b []byte) {
	if c.err != nil {
		return
	}
	if c.crc != nil {
		c.crc.Write(b)
	}
	n, err := c.w.Write(b)
	c.n += int64(n)
	c.err = err
}

func (c *countWriter) u32(v uint32) {
	binary.LittleEndian.PutUint32(c.buf[:4], v)
	c.bytes(c.buf[:4])
}

func (c *countWriter) u64(v uint64) {
	binary.LittleEndian.PutUint64(c.buf[:8], v)
	c.bytes(c.buf[:8])
}

// ReadHNSW reads an index that WriteTo wrote. The result is the same index:
// the same searches give the same results, and further Adds build what
// they would have built on the original. Input that is not such an index
// (another format version, truncated, altered) returns an error wrapping
// ErrCorrupt; a read error of r is returned wrapped as it is.
func ReadHNSW(r io.Reader) (*HNSW, error) {
	cr := &checkReader{r: bufio.NewReaderSize(r, 1<<16), crc: crc32.New(castagnoli)}
	ix, err := readHNSW(cr)
	if err != nil {
		return nil, err
	}
	sum := cr.crc.Sum32()
	cr.crc = nil
	if got := cr.u32(); cr.err != nil {
		return nil, cr.fail()
	} else if got != sum {
		return nil, fmt.Errorf("%w: checksum %08x, want %08x", ErrCorrupt, got, sum)
	}
	return ix, nil
}

func readHNSW(cr *checkReader) (*HNSW, error) {
	corrupt := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
	}
	magic := make([]byte, len(persistMagic))
	cr.read(magic)
	if cr.err != nil {
		return nil, cr.fail()
	}
	if string(magic) != persistMagic {
		return nil, corrupt("not a saved HNSW index (magic %q)", magic)
	}
	version := cr.u32()
	if cr.err == nil && (version < 1 || version > persistVersion) {
		return nil, corrupt("format version %d, this build reads 1 to %d", version, persistVersion)
	}
	dim, m, efc, efs, exact := int(cr.u32()), int(cr.u32()), int(cr.u32()), int(cr.u32()), int(int32(cr.u32()))
	seed := int64(cr.u64())
	quant := QuantizeNone
	if version >= 2 {
		quant = Quantization(cr.u32())
	}
	slots, entry, top, linked := int(cr.u32()), int32(cr.u32()), int(cr.u32()), int(cr.u32())
	draws := cr.u64()
	if cr.err != nil {
		return nil, cr.fail()
	}
	switch {
	case dim <= 0 || dim > maxPersistDim:
		return nil, corrupt("dimension %d", dim)
	case m < 2 || m > 1<<12 || efc < m || efc > 1<<20 || efs > 1<<20:
		return nil, corrupt("configuration M %d, EfConstruction %d, EfSearch %d", m, efc, efs)
	case slots < 0 || slots > math.MaxInt32 || linked > slots:
		return nil, corrupt("%d slots, %d linked", slots, linked)
	case entry < -1 || int(entry) >= slots || top > maxLevel:
		return nil, corrupt("entry point %d at level %d of %d slots", entry, top, slots)
	case draws != uint64(linked): // one level is drawn per linked slot
		return nil, corrupt("%d levels drawn for %d linked slots", draws, linked)
	case quant != QuantizeNone && quant != QuantizeInt8:
		return nil, corrupt("quantization %d", quant)
	}
	ix := NewHNSW(dim, HNSWConfig{M: m, EfConstruction: efc, EfSearch: efs, ExactLimit: exact, Seed: seed, Quantization: quant})
	if ix.cfg.M != m || ix.cfg.EfConstruction != efc || ix.cfg.EfSearch != efs {
		return nil, corrupt("configuration M %d, EfConstruction %d, EfSearch %d", m, efc, efs)
	}
	// Slices grow as slots are read, not from the declared count, so a
	// corrupt count cannot allocate more than the input holds.
	vec := make([]float32, dim)
	codes := make([]int8, dim)
	codeBytes := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(codes))), dim)
	nLinked := 0
	for s := range slots {
		id := int(int64(cr.u64()))
		var del [1]byte
		cr.read(del[:])
		var scale float32
		if quant == QuantizeInt8 {
			scale = math.Float32frombits(cr.u32())
			cr.read(codeBytes)
		} else {
			b := cr.bytes(4 * dim)
			for j := range vec {
				vec[j] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*j:]))
			}
		}
		layers := int(cr.u32())
		if cr.err != nil {
			return nil, cr.fail()
		}
		if del[0] > 1 || layers > maxLevel+1 {
			return nil, corrupt("slot %d: deleted flag %d, %d layers", s, del[0], layers)
		}
		if quant == QuantizeInt8 {
			if err := checkCodes(codes, scale); err != nil {
				return nil, corrupt("slot %d: %v", s, err)
			}
		} else if err := checkVector(vec, dim, fmt.Sprintf("slot %d", s)); err != nil {
			return nil, corrupt("%v", err)
		}
		prev, had := ix.slot[id]
		if had && del[0] == 0 {
			return nil, corrupt("slot %d: ID %d is live twice", s, id)
		}
		if quant == QuantizeInt8 {
			ix.appendCodes(id, codes, scale)
		} else {
			ix.append(id, vec)
		}
		if del[0] == 1 { // a tombstone: keep the map's live slot of id, if any
			ix.deleted[s] = true
			ix.nDeleted++
			if had {
				ix.slot[id] = prev
			} else {
				delete(ix.slot, id)
			}
		}
		if layers > 0 {
			nLinked++
			ix.links[s] = make([][]int32, layers)
		}
		for l := range layers {
			n := int(cr.u32())
			if cr.err != nil {
				return nil, cr.fail()
			}
			if n > ix.maxLinks(l) {
				return nil, corrupt("slot %d layer %d: %d links, at most %d", s, l, n, ix.maxLinks(l))
			}
			links := make([]int32, n, ix.maxLinks(l)+1)
			b := cr.bytes(4 * n)
			if cr.err != nil {
				return nil, cr.fail()
			}
			for i := range links {
				links[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
				if links[i] < 0 || int(links[i]) >= slots {
					return nil, corrupt("slot %d layer %d: link to slot %d of %d", s, l, links[i], slots)
				}
			}
			ix.links[s][l] = links
		}
	}
	if cr.err != nil {
		return nil, cr.fail()
	}
	// The graph must be consistent: links only to nodes that reach that
	// layer, and the entry point at the top level.
	for s, layers := range ix.links {
		for l, links := range layers {
			for _, n := range links {
				if l >= len(ix.links[n]) {
					return nil, corrupt("slot %d layer %d: link to slot %d, which has %d layers", s, l, n, len(ix.links[n]))
				}
			}
		}
	}
	switch {
	case nLinked != linked:
		return nil, corrupt("%d slots linked, header says %d", nLinked, linked)
	case entry < 0 && linked > 0, entry >= 0 && len(ix.links[entry]) != top+1:
		return nil, corrupt("entry point %d at level %d", entry, top)
	}
	ix.entry, ix.top, ix.linked = entry, top, linked
	// Linked slots were checked against the slots actually read, so this
	// loop is bounded by the input's size.
	ix.rng = rand.New(rand.NewSource(seed))
	for range draws {
		ix.rng.Float64()
	}
	ix.draws = draws
	return ix, nil
}

// checkReader reads little-endian values, hashing them and keeping the
// first error.
type checkReader struct {
	r       io.Reader
	crc     hash.Hash32
	err     error
	buf     [8]byte
	scratch []byte
}

// bytes reads n bytes into a buffer that the next call reuses (zeros after
// an error). n is bounded by the caller (a dimension or a link count that
// was checked), so a corrupt file cannot make it allocate much.
func (c *checkReader) bytes(n int) []byte {
	if cap(c.scratch) < n {
		c.scratch = make([]byte, n)
	}
	b := c.scratch[:n]
	c.read(b)
	return b
}

func (c *checkReader) read(b []byte) {
	if c.err != nil {
		clear(b)
		return
	}
	if _, err := io.ReadFull(c.r, b); err != nil {
		c.err = err
		clear(b)
		return
	}
	if c.crc != nil {
		c.crc.Write(b)
	}
}

func (c *checkReader) u32() uint32 {
	c.read(c.buf[:4])
	return binary.LittleEndian.Uint32(c.buf[:4])
}

func (c *checkReader) u64() uint64 {
	c.read(c.buf[:8])
	return binary.LittleEndian.Uint64(c.buf[:8])
}

// fail returns the reader's error: truncation is corruption, anything else
// is the underlying reader's error.
func (c *checkReader) fail() error {
	if errors.Is(c.err, io.EOF) || errors.Is(c.err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: truncated", ErrCorrupt)
	}
	return fmt.Errorf("reading saved index: %w", c.err)
}

package binfmt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
)

// readSize is the least a streaming Reader asks of its source at a time.
const readSize = 1 << 16

// Reader reads little-endian values, either from data already in memory
// (NewBytesReader) or streamed from an io.Reader (NewReader). Its first
// error sticks: later reads return zero values (and nil slices), so a
// caller reads a whole section and checks Err once.
//
// Errors about the content of the data (truncation, a count the data
// cannot hold, a checksum mismatch, or what the caller reports with Failf)
// wrap the corrupt error given to the constructor, which is the caller's
// own sentinel; an error of the source is returned wrapped as it is.
//
// A Reader is not safe for concurrent use.
type Reader struct {
	src     io.Reader // nil: data is all there is
	data    []byte
	pos     int   // next byte of data to read
	off     int64 // bytes of the source before data[0]
	crc     hash.Hash32
	hashed  int // data[:hashed] is hashed (streaming only)
	err     error
	corrupt error
}

// NewBytesReader returns a Reader of data, which it does not copy: the
// slices that Bytes returns are parts of data. It does not hash what it
// reads; check data's trailer first with SplitTrailer.
func NewBytesReader(data []byte, corrupt error) *Reader {
	return &Reader{data: data, corrupt: corrupt}
}

// NewReader returns a Reader that streams from r, reading ahead of what it
// is asked for (so r should hold nothing after the data), and hashes what
// it reads for Checksum.
func NewReader(r io.Reader, corrupt error) *Reader {
	return &Reader{src: r, crc: crc32.New(castagnoli), corrupt: corrupt}
}

// Err returns the first error, or nil.
func (r *Reader) Err() error { return r.err }

// Failf records an error wrapping the corrupt error (unless there is one
// already): the caller found the data inconsistent.
func (r *Reader) Failf(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", r.corrupt, fmt.Sprintf(format, args...))
	}
}

// Offset returns the number of bytes read.
func (r *Reader) Offset() int64 { return r.off + int64(r.pos) }

// Remaining returns the number of bytes left in an in-memory Reader, and
// -1 for a streaming one.
func (r *Reader) Remaining() int {
	if r.src != nil {
		return -1
	}
	return len(r.data) - r.pos
}

// Bytes returns the next n bytes, or nil after an error (including fewer
// than n bytes left). For a streaming Reader the slice is valid until the
// next read; for an in-memory one it is part of its data.
func (r *Reader) Bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 {
		r.Failf("length %d at byte %d", n, r.Offset())
		return nil
	}
	if n > len(r.data)-r.pos && !r.fill(n) {
		return nil
	}
	b := r.data[r.pos : r.pos+n : r.pos+n]
	r.pos += n
	return b
}

// fill makes at least n unread bytes available, reading from the source.
func (r *Reader) fill(n int) bool {
	if r.src == nil {
		r.Failf("truncated at byte %d", r.Offset())
		return false
	}
	r.hash()
	rest := len(r.data) - r.pos
	buf := r.data
	if cap(buf) < n {
		buf = make([]byte, max(n, readSize))
	}
	buf = buf[:cap(buf)]
	copy(buf, r.data[r.pos:])
	r.off += int64(r.pos)
	r.pos, r.hashed = 0, 0
	got, err := io.ReadAtLeast(r.src, buf[rest:], n-rest)
	r.data = buf[:rest+got]
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			r.Failf("truncated at byte %d", r.off+int64(len(r.data)))
		} else {
			r.err = fmt.Errorf("reading saved index: %w", err)
		}
		return false
	}
	return true
}

// hash adds the bytes read since the last call to the checksum.
func (r *Reader) hash() {
	if r.crc != nil && r.pos > r.hashed {
		r.crc.Write(r.data[r.hashed:r.pos])
		r.hashed = r.pos
	}
}

// Magic reads len(magic) bytes and reports whether they are magic (false
// after an error too).
func (r *Reader) Magic(magic string) bool {
	b := r.Bytes(len(magic))
	return b != nil && string(b) == magic
}

// U8 reads one byte.
func (r *Reader) U8() uint8 {
	if b := r.Bytes(1); b != nil {
		return b[0]
	}
	return 0
}

// U32 reads 4 bytes.
func (r *Reader) U32() uint32 {
	if b := r.Bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

// U64 reads 8 bytes.
func (r *Reader) U64() uint64 {
	if b := r.Bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// I32 reads what Writer.I32 wrote.
func (r *Reader) I32() int32 { return int32(r.U32()) }

// I64 reads what Writer.I64 wrote.
func (r *Reader) I64() int64 { return int64(r.U64()) }

// F32 reads what Writer.F32 wrote.
func (r *Reader) F32() float32 { return math.Float32frombits(r.U32()) }

// F64 reads what Writer.F64 wrote.
func (r *Reader) F64() float64 { return math.Float64frombits(r.U64()) }

// Count reads a number of items (4 bytes) of at least minSize bytes each.
// An in-memory Reader refuses a number its remaining data cannot hold, so
// that bad data cannot make the caller allocate much; a streaming one
// cannot know, and its caller must bound the number itself. After an error
// it returns 0.
func (r *Reader) Count(minSize int) int {
	k := int(r.U32())
	if left := r.Remaining(); r.err == nil && left >= 0 && k > left/minSize {
		r.Failf("%d items of at least %d bytes in the %d bytes left", k, minSize, left)
	}
	if r.err != nil {
		return 0
	}
	return k
}

// Int32s fills dst with what Writer.Int32s wrote (zeros after an error).
func (r *Reader) Int32s(dst []int32) {
	b := r.Bytes(4 * len(dst))
	if b == nil {
		clear(dst)
		return
	}
	for i := range dst {
		dst[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
}

// Float32s fills dst with what Writer.Float32s wrote (zeros after an
// error).
func (r *Reader) Float32s(dst []float32) {
	b := r.Bytes(4 * len(dst))
	if b == nil {
		clear(dst)
		return
	}
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
}

// Int32List reads what Writer.Int32List wrote: nil when empty, otherwise
// a new slice whose capacity is its length (so appending to it never
// writes into memory another list shares).
func (r *Reader) Int32List() []int32 {
	k := r.Count(4)
	if k == 0 {
		return nil
	}
	out := make([]int32, k)
	r.Int32s(out)
	return out
}

// Checksum reads the CRC-32C trailer of a streaming Reader and checks it
// against every byte read before it.
func (r *Reader) Checksum() {
	if r.err != nil {
		return
	}
	r.hash()
	want := r.crc.Sum32()
	if got := r.U32(); r.err == nil && got != want {
		r.Failf("checksum %08x, want %08x", got, want)
	}
}

// SplitTrailer splits data, a whole file in memory, into what comes
// before its CRC-32C trailer and reports whether the trailer matches it
// (false when data is shorter than a trailer).
func SplitTrailer(data []byte) (body []byte, ok bool) {
	if len(data) < 4 {
		return nil, false
	}
	body = data[:len(data)-4]
	return body, crc32.Checksum(body, castagnoli) == binary.LittleEndian.Uint32(data[len(body):])
}

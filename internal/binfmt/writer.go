package binfmt

import (
	"encoding/binary"
	"hash"
	"hash/crc32"
	"io"
	"math"
)

// flushSize is how many bytes a Writer gathers before it hashes and writes
// them: hashing and writing 4 bytes at a time cost most of the time of
// saving an index.
const flushSize = 1 << 16

// Writer writes little-endian values to an io.Writer, buffered, hashing
// them with CRC-32C, counting them, and keeping the first error: once a
// write fails, later calls do nothing and Finish returns that error.
//
// A nil *Writer discards everything it is given: an encoder can run its
// sections once without writing (to collect what a later section refers
// to, such as a string table) and once for real.
//
// A Writer is not safe for concurrent use.
type Writer struct {
	w   io.Writer
	crc hash.Hash32
	buf []byte
	n   int64
	err error
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, crc: crc32.New(castagnoli), buf: make([]byte, 0, flushSize+8)}
}

// Header writes a file's magic string and layout version.
func (w *Writer) Header(magic string, version uint32) {
	w.Raw([]byte(magic))
	w.U32(version)
}

// flushAt hashes and writes the gathered bytes once they reach size bytes.
func (w *Writer) flushAt(size int) {
	if len(w.buf) < size || len(w.buf) == 0 {
		return
	}
	w.write(w.buf)
	w.buf = w.buf[:0]
}

func (w *Writer) write(b []byte) {
	if w.err != nil {
		return
	}
	w.crc.Write(b)
	n, err := w.w.Write(b)
	w.n += int64(n)
	w.err = err
}

// Raw writes b as it is.
func (w *Writer) Raw(b []byte) {
	if w == nil {
		return
	}
	if len(b) >= flushSize {
		w.flushAt(0)
		w.write(b)
		return
	}
	w.buf = append(w.buf, b...)
	w.flushAt(flushSize)
}

// U8 writes one byte.
func (w *Writer) U8(v uint8) {
	if w == nil {
		return
	}
	w.buf = append(w.buf, v)
	w.flushAt(flushSize)
}

// U32 writes v in 4 bytes.
func (w *Writer) U32(v uint32) {
	if w == nil {
		return
	}
	w.buf = binary.LittleEndian.AppendUint32(w.buf, v)
	w.flushAt(flushSize)
}

// U64 writes v in 8 bytes.
func (w *Writer) U64(v uint64) {
	if w == nil {
		return
	}
	w.buf = binary.LittleEndian.AppendUint64(w.buf, v)
	w.flushAt(flushSize)
}

// I32 writes v in 4 bytes (two's complement).
func (w *Writer) I32(v int32) { w.U32(uint32(v)) }

// I64 writes v in 8 bytes (two's complement).
func (w *Writer) I64(v int64) { w.U64(uint64(v)) }

// F32 writes v's IEEE 754 bits in 4 bytes.
func (w *Writer) F32(v float32) { w.U32(math.Float32bits(v)) }

// F64 writes v's IEEE 754 bits in 8 bytes.
func (w *Writer) F64(v float64) { w.U64(math.Float64bits(v)) }

// Int32s writes the values of vs, 4 bytes each, without their number
// (which the reader knows from elsewhere; see Int32List).
func (w *Writer) Int32s(vs []int32) {
	if w == nil {
		return
	}
	for _, v := range vs {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(v))
		w.flushAt(flushSize)
	}
}

// Int32List writes the number of values in vs (4 bytes), then the values:
// what Reader.Int32List reads.
func (w *Writer) Int32List(vs []int32) {
	w.U32(uint32(len(vs)))
	w.Int32s(vs)
}

// Float32s writes the values of vs, 4 bytes each, without their number.
func (w *Writer) Float32s(vs []float32) {
	if w == nil {
		return
	}
	for _, v := range vs {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, math.Float32bits(v))
		w.flushAt(flushSize)
	}
}

// Finish writes what is still gathered and then the CRC-32C of every byte
// written before it (4 bytes), and returns the number of bytes written in
// all and the first error. Nothing may be written after it.
func (w *Writer) Finish() (int64, error) {
	if w == nil {
		return 0, nil
	}
	w.flushAt(0)
	if w.err == nil {
		sum := binary.LittleEndian.AppendUint32(nil, w.crc.Sum32())
		n, err := w.w.Write(sum)
		w.n += int64(n)
		w.err = err
	}
	return w.n, w.err
}

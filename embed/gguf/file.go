package gguf

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// magic is the first four bytes of every GGUF file.
const magic = "GGUF"

// version is the GGUF format version this package writes.
const version uint32 = 3

// DefaultAlignment is the alignment, in bytes, of the tensor data section and
// of every tensor in it, when a File does not set "general.alignment". 32 is
// the default of the GGUF specification.
const DefaultAlignment = 32

// Value types of the GGUF specification.
const (
	typeUint8   uint32 = 0
	typeInt8    uint32 = 1
	typeUint16  uint32 = 2
	typeInt16   uint32 = 3
	typeUint32  uint32 = 4
	typeInt32   uint32 = 5
	typeFloat32 uint32 = 6
	typeBool    uint32 = 7
	typeString  uint32 = 8
	typeArray   uint32 = 9
	typeUint64  uint32 = 10
	typeInt64   uint32 = 11
	typeFloat64 uint32 = 12
)

// tensorTypeF32 is the ggml type id of 32-bit float tensors.
const tensorTypeF32 uint32 = 0

// KV is one metadata key-value pair. Value must be one of uint8, int8,
// uint16, int16, uint32, int32, uint64, int64, float32, float64, bool,
// string, or a slice of one of those; the Go type decides the GGUF type, so
// write uint32(n) where a reader expects a uint32 (Ollama's readers are
// strict about types).
type KV struct {
	Key   string
	Value any
}

// Tensor is one F32 tensor. Shape lists dimensions innermost first, as ggml
// does: a matrix of n rows of d floats has Shape {d, n}, and Data holds the
// rows one after the other.
type Tensor struct {
	Name  string
	Shape []uint64
	Data  []float32
}

// File is the content of a GGUF file: metadata in the order written, then
// tensors. The zero value is an empty, valid file.
type File struct {
	KVs     []KV
	Tensors []Tensor
}

// Validate reports the first problem that would make Write fail: an empty or
// duplicated key or tensor name, an unsupported value type, a tensor whose
// data length does not match its shape, or a tensor value that is NaN or
// infinite.
func (f *File) Validate() error {
	keys := make(map[string]bool, len(f.KVs))
	for _, kv := range f.KVs {
		if kv.Key == "" {
			return errors.New("gguf: metadata key is empty")
		}
		if keys[kv.Key] {
			return fmt.Errorf("gguf: metadata key %q appears twice", kv.Key)
		}
		keys[kv.Key] = true
		if _, err := valueType(kv.Value); err != nil {
			return fmt.Errorf("gguf: metadata key %q: %w", kv.Key, err)
		}
	}
	if a, ok := f.lookup("general.alignment"); ok {
		n, isU32 := a.(uint32)
		if !isU32 || n == 0 || n%8 != 0 {
			return fmt.Errorf("gguf: general.alignment must be a uint32 multiple of 8, got %v (%T)", a, a)
		}
	}
	names := make(map[string]bool, len(f.Tensors))
	for _, t := range f.Tensors {
		if t.Name == "" {
			return errors.New("gguf: tensor name is empty")
		}
		if names[t.Name] {
			return fmt.Errorf("gguf: tensor %q appears twice", t.Name)
		}
		names[t.Name] = true
		if len(t.Shape) == 0 || len(t.Shape) > 4 {
			return fmt.Errorf("gguf: tensor %q has %d dimensions, want 1 to 4", t.Name, len(t.Shape))
		}
		n := uint64(1)
		for _, d := range t.Shape {
			if d == 0 {
				return fmt.Errorf("gguf: tensor %q has a zero dimension in shape %v", t.Name, t.Shape)
			}
			if n > math.MaxInt64/d {
				return fmt.Errorf("gguf: tensor %q shape %v is too large", t.Name, t.Shape)
			}
			n *= d
		}
		if uint64(len(t.Data)) != n {
			return fmt.Errorf("gguf: tensor %q has %d values, shape %v needs %d", t.Name, len(t.Data), t.Shape, n)
		}
		for i, v := range t.Data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("gguf: tensor %q value %d is %v; fix the source vectors", t.Name, i, v)
			}
		}
	}
	return nil
}

func (f *File) lookup(key string) (any, bool) {
	for _, kv := range f.KVs {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return nil, false
}

func (f *File) alignment() uint64 {
	if a, ok := f.lookup("general.alignment"); ok {
		if n, ok := a.(uint32); ok && n > 0 {
			return uint64(n)
		}
	}
	return DefaultAlignment
}

// Write validates f and writes it to w in GGUF v3, little-endian.
func (f *File) Write(w io.Writer) error {
	if err := f.Validate(); err != nil {
		return err
	}
	cw := &countingWriter{w: bufio.NewWriterSize(w, 1<<20)}
	e := &encoder{w: cw}
	e.raw([]byte(magic))
	e.u32(version)
	e.u64(uint64(len(f.Tensors)))
	e.u64(uint64(len(f.KVs)))
	for _, kv := range f.KVs {
		e.str(kv.Key)
		e.value(kv.Value)
	}
	align := f.alignment()
	var offset uint64
	offsets := make([]uint64, len(f.Tensors))
	for i, t := range f.Tensors {
		offsets[i] = offset
		e.str(t.Name)
		e.u32(uint32(len(t.Shape)))
		for _, d := range t.Shape {
			e.u64(d)
		}
		e.u32(tensorTypeF32)
		e.u64(offset)
		offset += padded(uint64(len(t.Data))*4, align)
	}
	e.pad(align)
	buf := make([]byte, 0, 1<<16)
	for _, t := range f.Tensors {
		for start := 0; start < len(t.Data); start += cap(buf) / 4 {
			end := min(start+cap(buf)/4, len(t.Data))
			buf = buf[:0]
			for _, v := range t.Data[start:end] {
				buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
			}
			e.raw(buf)
		}
		e.pad(align)
	}
	if e.err != nil {
		return fmt.Errorf("gguf: write: %w", e.err)
	}
	if err := cw.w.(*bufio.Writer).Flush(); err != nil {
		return fmt.Errorf("gguf: write: %w", err)
	}
	return nil
}

func padded(n, align uint64) uint64 {
	return (n + align - 1) / align * align
}

// valueType returns the GGUF type of a metadata value.
func valueType(v any) (uint32, error) {
	switch x := v.(type) {
	case uint8:
		return typeUint8, nil
	case int8:
		return typeInt8, nil
	case uint16:
		return typeUint16, nil
	case int16:
		return typeInt16, nil
	case uint32:
		return typeUint32, nil
	case int32:
		return typeInt32, nil
	case uint64:
		return typeUint64, nil
	case int64:
		return typeInt64, nil
	case float32:
		return typeFloat32, nil
	case float64:
		return typeFloat64, nil
	case bool:
		return typeBool, nil
	case string:
		return typeString, nil
	case []uint8, []int8, []uint16, []int16, []uint32, []int32, []uint64, []int64,
		[]float32, []float64, []bool, []string:
		return typeArray, nil
	case nil:
		return 0, errors.New("value is nil")
	default:
		return 0, fmt.Errorf("unsupported value type %T; use a fixed-size number, bool, string or a slice of one", x)
	}
}

type countingWriter struct {
	w io.Writer
	n uint64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += uint64(n)
	return n, err
}

// encoder writes little-endian GGUF values and keeps the first error.
type encoder struct {
	w   *countingWriter
	err error
	b   [8]byte
}

func (e *encoder) raw(p []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(p)
	}
}

func (e *encoder) u8(v uint8)   { e.raw([]byte{v}) }
func (e *encoder) u16(v uint16) { binary.LittleEndian.PutUint16(e.b[:2], v); e.raw(e.b[:2]) }
func (e *encoder) u32(v uint32) { binary.LittleEndian.PutUint32(e.b[:4], v); e.raw(e.b[:4]) }
func (e *encoder) u64(v uint64) { binary.LittleEndian.PutUint64(e.b[:8], v); e.raw(e.b[:8]) }

func (e *encoder) str(s string) {
	e.u64(uint64(len(s)))
	e.raw([]byte(s))
}

func (e *encoder) pad(align uint64) {
	if n := padded(e.w.n, align) - e.w.n; n > 0 {
		e.raw(make([]byte, n))
	}
}

// value writes a metadata value's type and payload; valueType has already
// accepted it.
func (e *encoder) value(v any) {
	t, _ := valueType(v)
	e.u32(t)
	switch x := v.(type) {
	case []uint8:
		array(e, typeUint8, x, e.u8)
	case []int8:
		array(e, typeInt8, x, func(v int8) { e.u8(uint8(v)) })
	case []uint16:
		array(e, typeUint16, x, e.u16)
	case []int16:
		array(e, typeInt16, x, func(v int16) { e.u16(uint16(v)) })
	case []uint32:
		array(e, typeUint32, x, e.u32)
	case []int32:
		array(e, typeInt32, x, func(v int32) { e.u32(uint32(v)) })
	case []uint64:
		array(e, typeUint64, x, e.u64)
	case []int64:
		array(e, typeInt64, x, func(v int64) { e.u64(uint64(v)) })
	case []float32:
		array(e, typeFloat32, x, func(v float32) { e.u32(math.Float32bits(v)) })
	case []float64:
		array(e, typeFloat64, x, func(v float64) { e.u64(math.Float64bits(v)) })
	case []bool:
		array(e, typeBool, x, e.bool)
	case []string:
		array(e, typeString, x, e.str)
	default:
		e.scalar(v)
	}
}

func (e *encoder) bool(v bool) {
	if v {
		e.u8(1)
	} else {
		e.u8(0)
	}
}

func (e *encoder) scalar(v any) {
	switch x := v.(type) {
	case uint8:
		e.u8(x)
	case int8:
		e.u8(uint8(x))
	case uint16:
		e.u16(x)
	case int16:
		e.u16(uint16(x))
	case uint32:
		e.u32(x)
	case int32:
		e.u32(uint32(x))
	case uint64:
		e.u64(x)
	case int64:
		e.u64(uint64(x))
	case float32:
		e.u32(math.Float32bits(x))
	case float64:
		e.u64(math.Float64bits(x))
	case bool:
		e.bool(x)
	case string:
		e.str(x)
	}
}

func array[T any](e *encoder, elem uint32, xs []T, put func(T)) {
	e.u32(elem)
	e.u64(uint64(len(xs)))
	for _, x := range xs {
		put(x)
	}
}

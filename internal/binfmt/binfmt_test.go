package binfmt

import (
	"bytes"
	"errors"
	"io"
	"math"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

var errBad = errors.New("bad data")

// values is what the round-trip tests write and read back.
type values struct {
	U8       uint8
	U32      uint32
	U64      uint64
	I32      int32
	I64      int64
	F32      float32
	F64      float64
	Raw      []byte
	Int32s   []int32
	Float32s []float32
	List     []int32
	Empty    []int32
}

var sample = values{
	U8: 7, U32: 0xdeadbeef, U64: math.MaxUint64 - 1, I32: -5, I64: math.MinInt64, F32: -1.5, F64: math.Pi,
	Raw: bytes.Repeat([]byte("x"), flushSize+3), Int32s: []int32{1, -2, 3}, Float32s: []float32{0.25, -8},
	List: []int32{math.MaxInt32, math.MinInt32},
}

func write(w *Writer, v values) (int64, error) {
	w.Header("MAGIC", 3)
	w.U8(v.U8)
	w.U32(v.U32)
	w.U64(v.U64)
	w.I32(v.I32)
	w.I64(v.I64)
	w.F32(v.F32)
	w.F64(v.F64)
	w.U32(uint32(len(v.Raw)))
	w.Raw(v.Raw)
	w.Int32s(v.Int32s)
	w.Float32s(v.Float32s)
	w.Int32List(v.List)
	w.Int32List(v.Empty)
	return w.Finish()
}

func read(r *Reader) (values, uint32) {
	var v values
	if !r.Magic("MAGIC") {
		r.Failf("magic")
	}
	version := r.U32()
	v.U8, v.U32, v.U64, v.I32, v.I64, v.F32, v.F64 = r.U8(), r.U32(), r.U64(), r.I32(), r.I64(), r.F32(), r.F64()
	v.Raw = bytes.Clone(r.Bytes(r.Count(1)))
	v.Int32s = make([]int32, 3)
	r.Int32s(v.Int32s)
	v.Float32s = make([]float32, 2)
	r.Float32s(v.Float32s)
	v.List = r.Int32List()
	v.Empty = r.Int32List()
	return v, version
}

func encoded(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := write(NewWriter(&buf), sample)
	if err != nil || n != int64(buf.Len()) {
		t.Fatalf("Finish = %d, %v; wrote %d bytes", n, err, buf.Len())
	}
	return buf.Bytes()
}

// TestRoundTrip reads back what a Writer wrote, from memory and streamed
// (whole, and one byte per Read).
func TestRoundTrip(t *testing.T) {
	data := encoded(t)
	body, ok := SplitTrailer(data)
	if !ok {
		t.Fatal("SplitTrailer: the trailer does not match")
	}
	for _, tc := range []struct {
		name string
		r    *Reader
		sum  bool
	}{
		{"memory", NewBytesReader(body, errBad), false},
		{"stream", NewReader(bytes.NewReader(data), errBad), true},
		{"stream one byte at a time", NewReader(iotest.OneByteReader(bytes.NewReader(data)), errBad), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, version := read(tc.r)
			if tc.sum {
				tc.r.Checksum()
			}
			if err := tc.r.Err(); err != nil {
				t.Fatal(err)
			}
			if version != 3 {
				t.Errorf("version %d, want 3", version)
			}
			if diff := cmp.Diff(sample, got); diff != "" {
				t.Errorf("read back (-want +got):\n%s", diff)
			}
			if got.Empty != nil {
				t.Errorf("an empty list reads as %#v, want nil", got.Empty)
			}
			if cap(got.List) != len(got.List) {
				t.Errorf("a list's capacity is %d, its length %d", cap(got.List), len(got.List))
			}
			if tc.r.Offset() != int64(len(body))+map[bool]int64{true: 4}[tc.sum] {
				t.Errorf("Offset %d after reading %d bytes", tc.r.Offset(), len(body))
			}
		})
	}
}

// TestNilWriter: a nil Writer (an encoder's dry run) accepts every call.
func TestNilWriter(t *testing.T) {
	if n, err := write(nil, sample); n != 0 || err != nil {
		t.Fatalf("nil Writer: Finish = %d, %v", n, err)
	}
}

// TestDamage: truncation, a changed byte and a count the data cannot hold
// are errors wrapping the caller's sentinel; a source's own error is
// passed on as itself.
func TestDamage(t *testing.T) {
	data := encoded(t)
	body, _ := SplitTrailer(data)
	flipped := bytes.Clone(data)
	flipped[len(flipped)/2] ^= 1
	boom := errors.New("disk on fire")
	for _, tc := range []struct {
		name    string
		r       *Reader
		corrupt bool // else the error is boom
	}{
		{"memory truncated", NewBytesReader(body[:len(body)-3], errBad), true},
		{"stream truncated", NewReader(bytes.NewReader(data[:len(data)-9]), errBad), true},
		{"stream without trailer", NewReader(bytes.NewReader(data[:len(data)-4]), errBad), true},
		{"stream with a changed byte", NewReader(bytes.NewReader(flipped), errBad), true},
		{"stream error", NewReader(io.MultiReader(bytes.NewReader(data[:20]), iotest.ErrReader(boom)), errBad), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			read(tc.r)
			tc.r.Checksum()
			err := tc.r.Err()
			if tc.corrupt && !errors.Is(err, errBad) || !tc.corrupt && (!errors.Is(err, boom) || errors.Is(err, errBad)) {
				t.Fatalf("error %v (corruption wanted: %t)", err, tc.corrupt)
			}
			if v := tc.r.U64(); v != 0 || tc.r.Bytes(1) != nil {
				t.Errorf("a read after an error returns %d", v)
			}
		})
	}
	if _, ok := SplitTrailer(flipped); ok {
		t.Error("SplitTrailer accepts a changed byte")
	}
	if _, ok := SplitTrailer(data[:3]); ok {
		t.Error("SplitTrailer accepts 3 bytes")
	}
	r := NewBytesReader([]byte{10, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7}, errBad)
	if k := r.Count(1); k != 0 || !errors.Is(r.Err(), errBad) {
		t.Errorf("Count of 10 one-byte items in 7 bytes: %d, %v", k, r.Err())
	}
}

package vectorindex

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// savedIndex builds a small graph with tombstones and a replaced ID.
func savedIndex(t testing.TB, n int) (*HNSW, []byte) {
	return savedIndexQ(t, n, QuantizeNone)
}

// savedIndexQ is savedIndex with vectors stored as q says.
func savedIndexQ(t testing.TB, n int, q Quantization) (*HNSW, []byte) {
	t.Helper()
	vecs := clusteredVectors(n, 16, max(n/50, 1), 0.1, 1, 2)
	ix := NewHNSW(16, HNSWConfig{Seed: 3, M: 8, Quantization: q})
	if err := ix.Add(seqIDs(n), vecs); err != nil {
		t.Fatal(err)
	}
	if err := ix.Add([]int{1}, vecs[2:3]); err != nil { // replace: slot 1 becomes a tombstone
		t.Fatal(err)
	}
	ix.Delete(5, 6)
	var buf bytes.Buffer
	n64, err := ix.WriteTo(&buf)
	if err != nil || n64 != int64(buf.Len()) {
		t.Fatalf("WriteTo = %d, %v; wrote %d bytes", n64, err, buf.Len())
	}
	return ix, buf.Bytes()
}

// TestSaveLoad: a loaded index equals the saved one in every field that
// matters, answers every search the same, and keeps building the same
// graph as the original when more vectors are added.
func TestSaveLoad(t *testing.T) {
	for _, tc := range []struct {
		n int
		q Quantization
	}{{0, QuantizeNone}, {1, QuantizeNone}, {300, QuantizeNone}, {1500, QuantizeNone}, {0, QuantizeInt8}, {300, QuantizeInt8}, {1500, QuantizeInt8}} { // 1500: past sequentialBelow
		n := tc.n
		ix, data := savedIndexQ(t, max(n, 7), tc.q)
		if n == 0 {
			ix, data = NewHNSW(16, HNSWConfig{Quantization: tc.q}), nil
			var buf bytes.Buffer
			if _, err := ix.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			data = buf.Bytes()
		}
		got, err := ReadHNSW(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("n=%d: ReadHNSW: %v", n, err)
		}
		if diff := cmp.Diff(ix.Config(), got.Config()); diff != "" {
			t.Errorf("n=%d: config (-saved +loaded):\n%s", n, diff)
		}
		type state struct {
			IDs     []int
			Vecs    []float32
			Codes   []int8
			Scales  []float32
			Links   [][][]int32
			Deleted []bool
			Slot    map[int]int32
			Entry   int32
			Top     int
			Linked  int
			NDel    int
			Draws   uint64
		}
		of := func(x *HNSW) state {
			return state{x.ids, x.vecs, x.codes, x.scales, x.links, x.deleted, x.slot, x.entry, x.top, x.linked, x.nDeleted, x.draws}
		}
		if diff := cmp.Diff(of(ix), of(got), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("n=%d: loaded index differs (-saved +loaded):\n%s", n, diff)
		}
		queries := clusteredVectors(20, 16, 6, 0.1, 1, 9)
		more := clusteredVectors(400, 16, 6, 0.1, 1, 10)
		ids := make([]int, len(more))
		for i := range ids {
			ids[i] = 10_000 + i
		}
		for _, x := range []*HNSW{ix, got} {
			if err := x.Add(ids, more); err != nil {
				t.Fatal(err)
			}
		}
		if diff := cmp.Diff(of(ix), of(got), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("n=%d: after the same Add, the graphs differ (-saved +loaded):\n%s", n, diff)
		}
		for _, q := range queries {
			a, _ := ix.Search(q, 10)
			b, _ := got.Search(q, 10)
			if diff := cmp.Diff(a, b); diff != "" {
				t.Fatalf("n=%d: search differs (-saved +loaded):\n%s", n, diff)
			}
		}
	}
}

// TestLoadCorrupt: every truncation and every single-byte change of a
// saved index is an error wrapping ErrCorrupt, never a panic or an index.
func TestLoadCorrupt(t *testing.T) {
	_, data := savedIndex(t, 60)
	_, data8 := savedIndexQ(t, 60, QuantizeInt8)
	for _, data := range [][]byte{data, data8} {
		corruptEvery(t, data)
	}
	// Another version is named as such.
	bad := bytes.Clone(data)
	bad[len(persistMagic)] = persistVersion + 1
	if _, err := ReadHNSW(bytes.NewReader(bad)); !errors.Is(err, ErrCorrupt) || !bytes.Contains([]byte(err.Error()), []byte("format version 3")) {
		t.Errorf("version 3: %v", err)
	}
	// A reader's own error is passed on, not called corruption.
	boom := errors.New("disk on fire")
	if _, err := ReadHNSW(io.MultiReader(bytes.NewReader(data[:40]), iotest.ErrReader(boom))); !errors.Is(err, boom) || errors.Is(err, ErrCorrupt) {
		t.Errorf("reader error: %v; want it wrapped, not ErrCorrupt", err)
	}
}

// corruptEvery checks that every truncation and every single-byte change of
// data is ErrCorrupt.
func corruptEvery(t *testing.T, data []byte) {
	t.Helper()
	for i := range len(data) {
		if ix, err := ReadHNSW(bytes.NewReader(data[:i])); !errors.Is(err, ErrCorrupt) || ix != nil {
			t.Fatalf("truncated to %d of %d bytes: %v, %v; want ErrCorrupt", i, len(data), ix, err)
		}
		bad := bytes.Clone(data)
		bad[i] ^= 0x5a
		if ix, err := ReadHNSW(bytes.NewReader(bad)); !errors.Is(err, ErrCorrupt) || ix != nil {
			t.Fatalf("byte %d changed: %v, %v; want ErrCorrupt", i, ix, err)
		}
	}
}

// TestLoadVersion1: a file of the first format (no quantization field,
// float32 vectors), as an older build saved it, still loads as the same
// index.
func TestLoadVersion1(t *testing.T) {
	ix, data := savedIndex(t, 300)
	// Version 2 inserted the quantization (uint32) after the seed.
	const at = len(persistMagic) + 4 + 5*4 + 8
	if q := binary.LittleEndian.Uint32(data[at:]); q != uint32(QuantizeNone) {
		t.Fatalf("quantization field %d at offset %d: the layout changed", q, at)
	}
	body := append(bytes.Clone(data[:at]), data[at+4:len(data)-4]...)
	binary.LittleEndian.PutUint32(body[len(persistMagic):], 1)
	v1 := binary.LittleEndian.AppendUint32(body, crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
	got, err := ReadHNSW(bytes.NewReader(v1))
	if err != nil {
		t.Fatalf("ReadHNSW(version 1): %v", err)
	}
	q := clusteredVectors(1, 16, 6, 0.1, 1, 9)[0]
	a, _ := ix.Search(q, 10)
	b, _ := got.Search(q, 10)
	if diff := cmp.Diff(a, b); diff != "" || got.Config() != ix.Config() {
		t.Fatalf("version 1 file loads differently (-saved +loaded):\n%s\nconfig %+v, want %+v", diff, got.Config(), ix.Config())
	}
}

// FuzzReadHNSW: no input makes ReadHNSW panic, and whatever it accepts is
// searchable. The input comes in sections — the version, the head (the
// configuration and graph state) and the slots — mutated one at a time and
// joined with a valid checksum, so that mutations reach the parser instead
// of the checksum; the seeds are tiny indexes (2 dimensions, up to 6
// vectors, a few hundred bytes), so that thousands run a second and an
// interesting input is minimized in moments.
func FuzzReadHNSW(f *testing.F) {
	const headV2 = 5*4 + 8 + 4 + 4 + 4 + 4 + 4 + 8 // readHead, version 2
	for _, tc := range []struct {
		n int
		q Quantization
	}{{0, QuantizeNone}, {1, QuantizeNone}, {6, QuantizeNone}, {6, QuantizeInt8}} {
		ix := NewHNSW(2, HNSWConfig{Seed: 3, M: 2, EfConstruction: 4, Quantization: tc.q})
		vecs := clusteredVectors(tc.n, 2, 1, 0.3, 1, 2)
		if err := ix.Add(seqIDs(tc.n), vecs); err != nil {
			f.Fatal(err)
		}
		if tc.n > 2 {
			ix.Delete(1)
		}
		var buf bytes.Buffer
		if _, err := ix.WriteTo(&buf); err != nil {
			f.Fatal(err)
		}
		data := buf.Bytes()
		at := len(persistMagic) + 4
		f.Add(binary.LittleEndian.Uint32(data[len(persistMagic):]), data[at:at+headV2], data[at+headV2:len(data)-4])
	}
	crcTable := crc32.MakeTable(crc32.Castagnoli)
	f.Fuzz(func(t *testing.T, version uint32, head, slots []byte) {
		b := binary.LittleEndian.AppendUint32([]byte(persistMagic), version)
		b = append(append(b, head...), slots...)
		b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
		ix, err := ReadHNSW(bytes.NewReader(b))
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		q := make([]float32, ix.Dim())
		q[0] = 1
		if _, err := ix.SearchFilter(q, 5, NewIDSet(1, 2, 3)); err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Search(q, 5); err != nil {
			t.Fatal(err)
		}
	})
}

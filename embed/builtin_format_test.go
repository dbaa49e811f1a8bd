package embed

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func sampleWordVectors(bits int) *WordVectors {
	lim := int8(maxQuant(bits))
	return &WordVectors{
		Dims:       3,
		SourceSize: 10,
		Bits:       bits,
		Words:      []string{"the", "weather", "café"},
		Ranks:      []uint32{1, 4, 9},
		Scales:     []float32{0.5, 0.25, 0},
		Vectors:    []int8{lim, -lim, 0, 1, -1, 2, 0, 0, 0},
	}
}

func TestWordVectorsRoundTrip(t *testing.T) {
	for _, bits := range []int{8, 4} {
		t.Run(fmt.Sprintf("%d bits", bits), func(t *testing.T) {
			want := sampleWordVectors(bits)
			data, err := want.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			again, err := want.MarshalBinary()
			if err != nil || !bytes.Equal(data, again) {
				t.Fatalf("MarshalBinary is not deterministic (err %v)", err)
			}
			var got WordVectors
			if err := got.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, &got); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWordVectorsMarshalRejects(t *testing.T) {
	tests := []struct {
		name   string
		change func(*WordVectors)
	}{
		{"no words", func(m *WordVectors) { *m = WordVectors{Dims: 3, Bits: 8} }},
		{"bad bits", func(m *WordVectors) { m.Bits = 5 }},
		{"duplicate word", func(m *WordVectors) { m.Words[1] = "the" }},
		{"empty word", func(m *WordVectors) { m.Words[1] = "" }},
		{"ranks not increasing", func(m *WordVectors) { m.Ranks[2] = 4 }},
		{"rank beyond source", func(m *WordVectors) { m.Ranks[2] = 11 }},
		{"negative scale", func(m *WordVectors) { m.Scales[0] = -1 }},
		{"short vectors", func(m *WordVectors) { m.Vectors = m.Vectors[:8] }},
		{"component out of 4-bit range", func(m *WordVectors) { m.Bits = 4; m.Vectors[0] = 8 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := sampleWordVectors(8)
			tt.change(m)
			if _, err := m.MarshalBinary(); err == nil {
				t.Error("MarshalBinary succeeded, want an error")
			}
		})
	}
}

// withCRC replaces the trailing checksum of data with a valid one, so a test
// can reach the checks behind it.
func withCRC(data []byte) []byte {
	body := data[:len(data)-4]
	return binary.LittleEndian.AppendUint32(append([]byte(nil), body...), crc32.ChecksumIEEE(body))
}

func TestWordVectorsUnmarshalRejects(t *testing.T) {
	good, err := sampleWordVectors(4).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "bad magic"},
		{"bad magic", append([]byte("XXXX"), good[4:]...), "bad magic"},
		{"truncated", good[:len(good)-7], "checksum"},
		{"flipped byte", func() []byte { b := bytes.Clone(good); b[30] ^= 1; return b }(), "checksum"},
		{"future version", func() []byte { b := bytes.Clone(good); b[4] = 9; return withCRC(b) }(), "version"},
		{"bad bits", func() []byte { b := bytes.Clone(good); b[16] = 3; return withCRC(b) }(), "bits"},
		{"huge count", func() []byte { b := bytes.Clone(good); b[11] = 0x7f; return withCRC(b) }(), "cannot hold"},
		{"trailing bytes", withCRC(append(bytes.Clone(good[:len(good)-4]), 0, 0, 0, 0, 0)), "bytes of scales"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m WordVectors
			err := m.UnmarshalBinary(tt.data)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("UnmarshalBinary error = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestQuantize(t *testing.T) {
	tests := []struct {
		name      string
		v         []float32
		bits      int
		wantScale float32
		wantQ     []int8
	}{
		{"8 bits", []float32{1.27, -0.635, 0}, 8, 0.01, []int8{127, -64, 0}},
		{"4 bits", []float32{0.7, -0.35, 0.04}, 4, 0.1, []int8{7, -4, 0}},
		{"zero vector", []float32{0, 0}, 8, 0, []int8{0, 0}},
		{"unsupported bits", []float32{1}, 5, 0, []int8{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, q := Quantize(tt.v, tt.bits)
			if diff := cmp.Diff(tt.wantQ, q); diff != "" {
				t.Errorf("components (-want +got):\n%s", diff)
			}
			if d := s - tt.wantScale; d > 1e-6 || d < -1e-6 {
				t.Errorf("scale = %v, want %v", s, tt.wantScale)
			}
		})
	}
}

func FuzzWordVectorsUnmarshal(f *testing.F) {
	for _, bits := range []int{8, 4} {
		data, err := sampleWordVectors(bits).MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m WordVectors
		if err := m.UnmarshalBinary(withCRC(append(data, 0, 0, 0, 0))); err != nil {
			return
		}
		again, err := m.MarshalBinary()
		if err != nil {
			t.Fatalf("decoded table does not encode: %v", err)
		}
		var m2 WordVectors
		if err := m2.UnmarshalBinary(again); err != nil {
			t.Fatalf("re-encoded table does not decode: %v", err)
		}
		if diff := cmp.Diff(&m, &m2); diff != "" {
			t.Errorf("decode(encode(decode(x))) differs (-first +second):\n%s", diff)
		}
	})
}

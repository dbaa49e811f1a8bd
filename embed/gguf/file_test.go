package gguf

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ollama/ollama/fs/ggml"
)

// decode reads a GGUF file with Ollama's own reader, the one its server uses.
func decode(t *testing.T, f *File) (*ggml.GGML, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatalf("Write: %v", err)
	}
	g, err := ggml.Decode(bytes.NewReader(buf.Bytes()), -1)
	if err != nil {
		t.Fatalf("ggml.Decode: %v", err)
	}
	return g, buf.Bytes()
}

// tensorData returns the F32 values of the named tensor in a decoded file.
func tensorData(t *testing.T, g *ggml.GGML, raw []byte, name string) []float32 {
	t.Helper()
	ts := g.Tensors()
	for _, tn := range ts.Items() {
		if tn.Name != name {
			continue
		}
		if tn.Kind != tensorTypeF32 {
			t.Fatalf("tensor %s has kind %d, want F32", name, tn.Kind)
		}
		start := ts.Offset + tn.Offset
		if start%DefaultAlignment != 0 {
			t.Errorf("tensor %s starts at %d, not aligned to %d", name, start, DefaultAlignment)
		}
		out := make([]float32, tn.Elements())
		for i := range out {
			p := raw[start+uint64(4*i):]
			out[i] = math.Float32frombits(uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24)
		}
		return out
	}
	t.Fatalf("tensor %s not found", name)
	return nil
}

func TestWriteRoundTrip(t *testing.T) {
	f := &File{
		KVs: []KV{
			{"general.architecture", "test"},
			{"general.name", "round trip"},
			{"test.u8", uint8(7)},
			{"test.i8", int8(-7)},
			{"test.u16", uint16(700)},
			{"test.i16", int16(-700)},
			{"test.u32", uint32(70000)},
			{"test.i32", int32(-70000)},
			{"test.u64", uint64(1 << 40)},
			{"test.i64", int64(-1 << 40)},
			{"test.f32", float32(0.5)},
			{"test.f64", 0.25},
			{"test.bool", true},
			{"test.strings", []string{"▁a", "b", ""}},
			{"test.i32s", []int32{1, -2, 3}},
			{"test.f32s", []float32{0.5, -1}},
			{"test.bools", []bool{true, false}},
		},
		Tensors: []Tensor{
			{Name: "a", Shape: []uint64{3}, Data: []float32{1, 2, 3}},
			{Name: "b", Shape: []uint64{2, 2}, Data: []float32{-1, 0.5, 0, 4}},
		},
	}
	g, raw := decode(t, f)
	if !bytes.HasPrefix(raw, []byte("GGUF\x03\x00\x00\x00")) {
		t.Errorf("header = %q, want GGUF v3", raw[:8])
	}
	kv := g.KV() // its typed accessors prefix other keys with "test."
	scalars := []struct {
		key  string
		want any
	}{
		{"general.name", "round trip"},
		{"test.u8", uint8(7)},
		{"test.i8", int8(-7)},
		{"test.u16", uint16(700)},
		{"test.i16", int16(-700)},
		{"test.u32", uint32(70000)},
		{"test.i32", int32(-70000)},
		{"test.u64", uint64(1 << 40)},
		{"test.i64", int64(-1 << 40)},
		{"test.f32", float32(0.5)},
		{"test.f64", 0.25},
		{"test.bool", true},
	}
	for _, s := range scalars {
		t.Run(s.key, func(t *testing.T) {
			if got := kv[s.key]; got != s.want {
				t.Errorf("%s = %v (%T), want %v (%T)", s.key, got, got, s.want, s.want)
			}
		})
	}
	if diff := cmp.Diff([]string{"▁a", "b", ""}, kv.Strings("strings")); diff != "" {
		t.Errorf("strings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int32{1, -2, 3}, kv.Ints("i32s")); diff != "" {
		t.Errorf("int32s (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]float32{0.5, -1}, kv.Floats("f32s")); diff != "" {
		t.Errorf("float32s (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{true, false}, kv.Bools("bools")); diff != "" {
		t.Errorf("bools (-want +got):\n%s", diff)
	}
	for _, tn := range f.Tensors {
		if diff := cmp.Diff(tn.Data, tensorData(t, g, raw, tn.Name)); diff != "" {
			t.Errorf("tensor %s (-want +got):\n%s", tn.Name, diff)
		}
	}
}

func TestWriteEmpty(t *testing.T) {
	g, _ := decode(t, &File{})
	if n := len(g.Tensors().Items()); n != 0 {
		t.Errorf("tensors = %d, want 0", n)
	}
}

func TestValidate(t *testing.T) {
	nan := float32(math.NaN())
	tests := []struct {
		name string
		file File
		want string // substring of the error
	}{
		{"empty key", File{KVs: []KV{{"", uint32(1)}}}, "key is empty"},
		{"duplicate key", File{KVs: []KV{{"a", uint32(1)}, {"a", uint32(2)}}}, "appears twice"},
		{"int is ambiguous", File{KVs: []KV{{"a", 1}}}, "unsupported value type int"},
		{"nil value", File{KVs: []KV{{"a", nil}}}, "nil"},
		{"bad alignment", File{KVs: []KV{{"general.alignment", uint32(3)}}}, "multiple of 8"},
		{"alignment type", File{KVs: []KV{{"general.alignment", uint64(32)}}}, "multiple of 8"},
		{"empty tensor name", File{Tensors: []Tensor{{Shape: []uint64{1}, Data: []float32{1}}}}, "name is empty"},
		{"duplicate tensor", File{Tensors: []Tensor{{"t", []uint64{1}, []float32{1}}, {"t", []uint64{1}, []float32{1}}}}, "appears twice"},
		{"no dimensions", File{Tensors: []Tensor{{"t", nil, nil}}}, "0 dimensions"},
		{"zero dimension", File{Tensors: []Tensor{{"t", []uint64{2, 0}, nil}}}, "zero dimension"},
		{"short data", File{Tensors: []Tensor{{"t", []uint64{2, 2}, []float32{1, 2, 3}}}}, "needs 4"},
		{"NaN", File{Tensors: []Tensor{{"t", []uint64{2}, []float32{1, nan}}}}, "NaN"},
		{"Inf", File{Tensors: []Tensor{{"t", []uint64{1}, []float32{float32(math.Inf(1))}}}}, "+Inf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.file.Validate()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate() = %v, want an error containing %q", err, tt.want)
			}
			if werr := tt.file.Write(&bytes.Buffer{}); werr == nil {
				t.Errorf("Write succeeded on an invalid file")
			}
		})
	}
}

func TestWriteCustomAlignment(t *testing.T) {
	f := &File{
		KVs:     []KV{{"general.alignment", uint32(64)}},
		Tensors: []Tensor{{"a", []uint64{3}, []float32{1, 2, 3}}, {"b", []uint64{1}, []float32{5}}},
	}
	g, raw := decode(t, f)
	for _, tn := range g.Tensors().Items() {
		if start := g.Tensors().Offset + tn.Offset; start%64 != 0 {
			t.Errorf("tensor %s starts at %d, not aligned to 64", tn.Name, start)
		}
	}
	if diff := cmp.Diff([]float32{5}, tensorData(t, g, raw, "b")); diff != "" {
		t.Errorf("tensor b (-want +got):\n%s", diff)
	}
}

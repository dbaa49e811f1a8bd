package main

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/embed"
)

func TestRunDemo(t *testing.T) {
	dir := t.TempDir()
	o := options{demo: true, out: dir, subwords: defaultSubwords, context: 512, sifA: defaultSIFA}
	if err := run(t.Context(), slog.New(slog.NewTextHandler(io.Discard, nil)), o); err != nil {
		t.Fatal(err)
	}
	mf, err := os.ReadFile(filepath.Join(dir, "Modelfile"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(modelfile, string(mf)); diff != "" {
		t.Errorf("Modelfile (-want +got):\n%s", diff)
	}
	g, err := os.ReadFile(filepath.Join(dir, "model.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(g, []byte("GGUF")) {
		t.Errorf("model.gguf starts with %q, want GGUF", g[:4])
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		o    options
		want string
	}{
		{"no source", options{}, "exactly one"},
		{"two sources", options{demo: true, text: "x"}, "exactly one"},
		{"missing file", options{vectors: filepath.Join(t.TempDir(), "none.bin")}, "read word vectors"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := load(tt.o); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("load() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestLoadText(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		wantWords []string
		wantErr   string
	}{
		{"glove", "the 0.1 0.2\nweather 1 -1\n", []string{"the", "weather"}, ""},
		{"word2vec header", "2 2\nthe 0.1 0.2\nweather 1 -1\n", []string{"the", "weather"}, ""},
		{"ragged", "the 0.1 0.2\nweather 1\n", nil, "has 1 values, want 2"},
		{"not a number", "the 0.1 x\n", nil, "not a finite number"},
		{"NaN", "the 0.1 NaN\n", nil, "not a finite number"},
		{"empty", "\n", nil, "no word vectors"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := loadText(strings.NewReader(tt.in), "vectors.txt")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantWords, s.words); diff != "" {
				t.Errorf("words (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]uint32{1, 2}, s.ranks); diff != "" {
				t.Errorf("ranks (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFromWordVectors(t *testing.T) {
	wv := &embed.WordVectors{
		Dims: 2, SourceSize: 1000,
		Words:   []string{"the", "weather"},
		Ranks:   []uint32{1, 40},
		Scales:  []float32{0.5, 1},
		Vectors: []int8{2, -2, 1, 3},
	}
	s := fromWordVectors(wv, "wink100")
	want := [][]float32{{1, -1}, {1, 3}}
	if diff := cmp.Diff(want, s.vectors); diff != "" {
		t.Errorf("vectors (-want +got):\n%s", diff)
	}
	if s.name != "toolsearch-wink100" || s.sourceSize != 1000 {
		t.Errorf("name %q, source size %d", s.name, s.sourceSize)
	}
	if got := s.truncate(1); len(got.words) != 1 || len(got.vectors) != 1 || len(got.ranks) != 1 {
		t.Errorf("truncate(1) kept %d words", len(got.words))
	}
}

func TestSIFWeights(t *testing.T) {
	w := sifWeights([]uint32{1, 100, 10000, 300000}, 341479, defaultSIFA)
	for i := 1; i < len(w); i++ {
		if w[i] <= w[i-1] {
			t.Errorf("weights not increasing with rank: %v", w)
		}
	}
	if w[0] > 0.02 || w[3] < 0.99 {
		t.Errorf("weights %v: want the most frequent word ≈ 0.01 and rare words ≈ 1", w)
	}
}

package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/embed/gguf/topics"
)

// defaultSIFA is the smooth inverse frequency parameter of Arora et al.
// (2017): a word of probability p weighs a/(a+p). It is the built-in
// model's value (sifA in embed/sif.go, measured best on the bench catalogs),
// so both serve the same weighted word vectors: "the" weighs ≈ 0.0013 and
// words past rank 20,000 more than 0.96.
const defaultSIFA = 1e-4

// source is a vocabulary with vectors: what every input format becomes.
type source struct {
	name    string
	words   []string
	vectors [][]float32
	// ranks are the words' 1-based frequency ranks in a source of
	// sourceSize words, for SIF weights; nil when unknown.
	ranks      []uint32
	sourceSize int
	// weights, when set, are used as they are.
	weights []float32
}

// truncate keeps the first n words.
func (s *source) truncate(n int) *source {
	if n >= len(s.words) {
		return s
	}
	t := *s
	t.words, t.vectors = s.words[:n], s.vectors[:n]
	if s.ranks != nil {
		t.ranks = s.ranks[:n]
	}
	if s.weights != nil {
		t.weights = s.weights[:n]
	}
	return &t
}

// loadBuiltinFile reads a model file in the built-in model's format.
func loadBuiltinFile(path string) (*source, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read word vectors: %w", err)
	}
	var wv embed.WordVectors
	if err := wv.UnmarshalBinary(data); err != nil {
		return nil, fmt.Errorf("read word vectors %s: %w", path, err)
	}
	return fromWordVectors(&wv, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))), nil
}

// fromWordVectors turns the built-in model's table into a source: the one
// function that ties this command to the built-in model.
func fromWordVectors(wv *embed.WordVectors, name string) *source {
	s := &source{name: "toolsearch-" + name, ranks: wv.Ranks, sourceSize: wv.SourceSize}
	for i, w := range wv.Words {
		s.words = append(s.words, w)
		s.vectors = append(s.vectors, wv.Vector(i))
	}
	return s
}

// loadText reads "word v1 v2 …" lines, most frequent first (GloVe and
// word2vec text format; a first line of two integers is a header).
func loadText(r io.Reader, name string) (*source, error) {
	s := &source{name: "toolsearch-" + strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	line, dims := 0, 0
	for sc.Scan() {
		line++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if line == 1 && len(fields) == 2 {
			if _, err := strconv.Atoi(fields[0]); err == nil {
				continue // word2vec header: count dims
			}
		}
		if len(fields) < 2 {
			return nil, fmt.Errorf("%s:%d: want a word and its vector", name, line)
		}
		if dims == 0 {
			dims = len(fields) - 1
		}
		if len(fields)-1 != dims {
			return nil, fmt.Errorf("%s:%d: vector has %d values, want %d", name, line, len(fields)-1, dims)
		}
		v := make([]float32, dims)
		for j, f := range fields[1:] {
			x, err := strconv.ParseFloat(f, 32)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("%s:%d: value %d %q is not a finite number", name, line, j+1, f)
			}
			v[j] = float32(x)
		}
		s.words = append(s.words, fields[0])
		s.vectors = append(s.vectors, v)
		s.ranks = append(s.ranks, uint32(len(s.words)))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(s.words) == 0 {
		return nil, fmt.Errorf("%s has no word vectors", name)
	}
	s.sourceSize = len(s.words)
	return s, nil
}

// demoSource is topics.TopicModel, with its own weights.
func demoSource() *source {
	m := topics.TopicModel()
	return &source{name: m.Name, words: m.Words, vectors: m.Vectors, weights: m.Weights}
}

// sifWeights returns a/(a+p(rank)) per word, with p from Zipf's law over a
// vocabulary of n words: p(r) = 1/(r·H(n)), H(n) ≈ ln n + γ + 1/(2n), as
// embed/sif.go computes it.
func sifWeights(ranks []uint32, n int, a float64) []float32 {
	h := math.Log(float64(max(n, 1))) + 0.5772156649 + 1/(2*float64(max(n, 1)))
	w := make([]float32, len(ranks))
	for i, r := range ranks {
		p := 1 / (float64(max(r, 1)) * h)
		w[i] = float32(a / (a + p))
	}
	return w
}

package main

import (
	"fmt"
	"math"
	"unicode"

	"github.com/toolsearch/toolsearch/embed"
)

// Conversion defaults; see the flags in main.
const (
	// defaultWords is how many words the model keeps, most frequent first.
	// The source's frequencies come from news and encyclopedia text, where
	// words that tool descriptions need are rare: "username" and "csv" rank
	// near 80,000, "json", "timezone", "markdown" and "screenshot" beyond
	// 100,000. 150,000 words of 100 4-bit components make a ≈9.6 MB file.
	defaultWords = 150_000
	// defaultBits is the width of a stored component. 4 bits (with one
	// scale per word) keep each vector at cosine 0.994 to the original and
	// measured the same retrieval quality as 8 bits in half the space,
	// which buys a larger vocabulary.
	defaultBits = 4
	// defaultTop is how many dominant directions of the word vectors are
	// removed after centring them ("all-but-the-top"; the paper suggests
	// dims/100, i.e. 1 for 100 dims). These directions encode word
	// frequency rather than meaning.
	defaultTop = 5
	// statsWords is how many of the most frequent kept words define the mean
	// and the dominant directions that all-but-the-top removes (from every
	// kept word). Rare words have noisy vectors and would otherwise dominate
	// the statistics of a large vocabulary.
	statsWords = 100_000
)

// config holds the converter's settings.
type config struct {
	in, out string
	words   int // most frequent words kept
	top     int // dominant directions removed
	bits    int // bits per stored component
}

// keepWord reports whether the analysis pipeline can produce w as a token:
// lowercase letters and digits only, with at least one letter.
func keepWord(w string) bool {
	letter := false
	for _, r := range w {
		switch {
		case unicode.IsLetter(r) && !unicode.IsUpper(r) && !unicode.IsTitle(r):
			letter = true
		case unicode.IsDigit(r):
		default:
			return false
		}
	}
	return letter
}

// convert selects, post-processes and quantizes the source's vectors.
func convert(src *source, cfg config) (*embed.WordVectors, error) {
	if cfg.words <= 0 {
		return nil, fmt.Errorf("--words %d: want at least 1", cfg.words)
	}
	if cfg.bits != 8 && cfg.bits != 4 {
		return nil, fmt.Errorf("--bits %d: want 8 or 4", cfg.bits)
	}
	dims := src.Dimensions
	var words []string
	var ranks []uint32
	var vecs [][]float32
	seen := make(map[string]bool)
	for i, w := range src.Words {
		if len(words) == cfg.words {
			break
		}
		if seen[w] || !keepWord(w) {
			continue
		}
		raw, ok := src.Vectors[w]
		if !ok || len(raw) < dims {
			continue
		}
		v := make([]float32, dims)
		zero := true
		for j := range v {
			v[j] = float32(raw[j])
			if math.IsNaN(raw[j]) || math.IsInf(raw[j], 0) {
				return nil, fmt.Errorf("word %q has a non-finite component", w)
			}
			zero = zero && raw[j] == 0
		}
		if zero {
			continue
		}
		seen[w] = true
		words = append(words, w)
		ranks = append(ranks, uint32(i+1))
		vecs = append(vecs, v)
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("no usable words in the source")
	}
	if cfg.top > 0 {
		removeTop(vecs, min(len(vecs), statsWords), cfg.top)
	}
	m := &embed.WordVectors{
		Dims:       dims,
		Bits:       cfg.bits,
		SourceSize: len(src.Words),
		Words:      words,
		Ranks:      ranks,
		Scales:     make([]float32, len(words)),
		Vectors:    make([]int8, 0, len(words)*dims),
	}
	for i, v := range vecs {
		s, q := embed.Quantize(v, cfg.bits)
		m.Scales[i] = s
		m.Vectors = append(m.Vectors, q...)
	}
	return m, nil
}

// removeTop centres vecs and removes their top principal directions in
// place (all-but-the-top post-processing), with the mean and the directions
// taken from the first n vectors.
func removeTop(vecs [][]float32, n, top int) {
	dims := len(vecs[0])
	mean := make([]float64, dims)
	for _, v := range vecs[:n] {
		for j, c := range v {
			mean[j] += float64(c)
		}
	}
	for _, v := range vecs {
		for j := range v {
			v[j] -= float32(mean[j] / float64(n))
		}
	}
	for range top {
		pc := embed.FirstComponent(vecs[:n])
		if pc == nil {
			return
		}
		for _, v := range vecs {
			var dot float64
			for j := range v {
				dot += float64(float64(v[j]) * float64(pc[j])) // no fused multiply-add
			}
			for j := range v {
				v[j] -= float32(float32(dot) * pc[j])
			}
		}
	}
}

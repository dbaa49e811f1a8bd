package gguf

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"
)

// Special tokens of the WordPiece vocabulary, at ids 0 to 4 in this order.
// Their embedding rows are zero, so they add nothing to a mean-pooled vector.
const (
	PadToken  = "[PAD]"
	UnkToken  = "[UNK]"
	ClsToken  = "[CLS]"
	SepToken  = "[SEP]"
	MaskToken = "[MASK]"
)

// wordPrefix marks a word-initial WordPiece token in GGML vocabularies
// (where original BERT marks continuations with "##" instead).
const wordPrefix = "▁"

// Ballast is the number of extra dimensions appended to every token vector.
// Ollama's BERT applies LayerNorm to each token vector before pooling:
// LN(x) = (x-mean(x))/std(x)*w + b. The ballast values are chosen so that
// every row has mean 0 and the same norm R; LN then maps a row to
// x*sqrt(D)/R, the word vector up to one constant factor shared by all
// tokens, and LayerNorm weight 0 on the ballast dimensions zeroes them in the
// output. Two dimensions are enough to fix both the sum and the norm. Example:
// 100-dimensional word vectors give a 102-dimensional model whose last two
// output values are always 0.
const Ballast = 2

// DefaultContextLength is the context length (maximum tokens per input) of a
// StaticModel that does not set one. Ollama caps num_ctx to it and truncates
// longer inputs; position embeddings cost 4*(dims+Ballast) bytes per position
// (≈ 0.8 MB for 100 dimensions).
const DefaultContextLength = 2048

// layerNormEpsilon is LayerNorm's epsilon; it only matters for the all-zero
// rows of special tokens, for which it avoids a division by zero.
const layerNormEpsilon = 1e-12

// StaticModel is a set of word vectors to be served by Ollama as a BERT
// encoder with zero layers and mean pooling: the embedding of a text is then
// the L2-normalized mean of its words' (weighted) vectors, which Ollama
// computes on its own. Build the GGUF content with File.
type StaticModel struct {
	// Name is written as general.name, e.g. "toolsearch-wink-sg-100d".
	Name string
	// Words are the vocabulary, most frequent first. Ollama lowercases input
	// and splits it at whitespace and punctuation before looking words up,
	// so words are lowercased here; words that still contain whitespace or
	// punctuation could never match and are skipped, as are repeats.
	Words []string
	// Vectors holds one vector per word, all of the same length.
	Vectors [][]float32
	// Weights optionally scales each word's vector (e.g. smooth inverse
	// frequency weights); nil means 1 for every word. Weights must be finite
	// and not negative.
	Weights []float32
	// Subwords is how many of the first words also get a continuation piece
	// (the word without the "▁" prefix), so that Ollama's greedy WordPiece
	// can split unknown compounds such as "getweather" into "▁get" +
	// "weather". Only words of at least MinSubwordLen bytes get one. Zero
	// adds none; each piece costs one more embedding row.
	Subwords int
	// ContextLength is the maximum number of tokens per input; zero means
	// DefaultContextLength.
	ContextLength int
}

// MinSubwordLen is the minimum length, in bytes, of a continuation piece:
// shorter pieces ("s", "er") would let WordPiece split unknown words into
// meaningless fragments.
const MinSubwordLen = 3

// Dimensions returns the length of the vectors the model's Ollama embeddings
// have: the word vectors' length plus Ballast.
func (m *StaticModel) Dimensions() int {
	if len(m.Vectors) == 0 {
		return 0
	}
	return len(m.Vectors[0]) + Ballast
}

// File builds the GGUF content of the model. It fails, naming the problem,
// when the vocabulary is empty, vectors and words do not pair up, a vector's
// length differs, or a value is NaN or infinite.
func (m *StaticModel) File() (*File, error) {
	if len(m.Words) == 0 {
		return nil, errors.New("gguf: static model has no words; pass a vocabulary")
	}
	if len(m.Vectors) != len(m.Words) {
		return nil, fmt.Errorf("gguf: static model has %d words but %d vectors; pass one vector per word", len(m.Words), len(m.Vectors))
	}
	if m.Weights != nil && len(m.Weights) != len(m.Words) {
		return nil, fmt.Errorf("gguf: static model has %d words but %d weights; pass one weight per word or none", len(m.Words), len(m.Weights))
	}
	ctxLen := m.ContextLength
	if ctxLen == 0 {
		ctxLen = DefaultContextLength
	}
	if ctxLen < 4 || ctxLen > 1<<20 {
		return nil, fmt.Errorf("gguf: context length %d is out of range; use 4 to %d", ctxLen, 1<<20)
	}
	dim := len(m.Vectors[0])
	if dim == 0 {
		return nil, errors.New("gguf: word vectors are empty")
	}

	// Scaled word vectors, in vocabulary order, for the words kept.
	tokens := []string{PadToken, UnkToken, ClsToken, SepToken, MaskToken}
	rows := make([][]float64, len(tokens), len(tokens)+len(m.Words))
	seen := make(map[string]bool, len(m.Words))
	var pieces []int // indexes into rows of words that get a continuation piece
	for i, w := range m.Words {
		v := m.Vectors[i]
		if len(v) != dim {
			return nil, fmt.Errorf("gguf: vector of word %d (%q) has %d values, want %d", i, w, len(v), dim)
		}
		weight := 1.0
		if m.Weights != nil {
			weight = float64(m.Weights[i])
			if math.IsNaN(weight) || math.IsInf(weight, 0) || weight < 0 {
				return nil, fmt.Errorf("gguf: weight of word %d (%q) is %v; weights must be finite and not negative", i, w, weight)
			}
		}
		w = strings.ToLower(w)
		if !matchable(w) || seen[w] {
			continue
		}
		seen[w] = true
		row := make([]float64, dim)
		for j, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, fmt.Errorf("gguf: vector of word %d (%q) has %v at %d; fix the source vectors", i, w, x, j)
			}
			row[j] = weight * float64(x)
		}
		if i < m.Subwords && len(w) >= MinSubwordLen {
			pieces = append(pieces, len(rows))
		}
		tokens = append(tokens, wordPrefix+w)
		rows = append(rows, row)
	}
	for _, r := range pieces {
		tokens = append(tokens, strings.TrimPrefix(tokens[r], wordPrefix))
		rows = append(rows, rows[r])
	}
	if len(tokens) == 5 {
		return nil, errors.New("gguf: no word can ever match; words must not contain whitespace or punctuation")
	}

	embd, err := ballasted(rows, dim)
	if err != nil {
		return nil, err
	}
	total := dim + Ballast
	norm := make([]float32, total)
	for j := range dim {
		norm[j] = 1
	}
	f := &File{
		KVs: []KV{
			{"general.architecture", "bert"},
			{"general.name", m.Name},
			{"general.file_type", uint32(0)}, // all F32
			{"general.alignment", uint32(DefaultAlignment)},
			{"bert.block_count", uint32(0)},
			{"bert.context_length", uint32(ctxLen)},
			{"bert.embedding_length", uint32(total)},
			{"bert.feed_forward_length", uint32(total)},
			{"bert.attention.head_count", uint32(1)},
			{"bert.attention.layer_norm_epsilon", float32(layerNormEpsilon)},
			{"bert.attention.causal", false},
			{"bert.pooling_type", uint32(1)}, // mean
			{"bert.normalize_embeddings", true},
			{"tokenizer.ggml.model", "bert"},
			// No tokenizer.ggml.token_type or .scores: WordPiece uses
			// neither, and Ollama v0.17.4 re-reads the file's metadata on
			// every /api/embed call with one read syscall per array element
			// (two per token string). Dropping both cut the latency of one
			// text on a 170k-token model from ≈ 75 to ≈ 60 ms (loaded
			// 2-core machine); the token strings remain the main cost.
			{"tokenizer.ggml.tokens", tokens},
			{"tokenizer.ggml.padding_token_id", uint32(0)},
			{"tokenizer.ggml.unknown_token_id", uint32(1)},
			{"tokenizer.ggml.cls_token_id", uint32(2)},
			// Ollama and llama.cpp read the key with this spelling.
			{"tokenizer.ggml.seperator_token_id", uint32(3)},
			{"tokenizer.ggml.mask_token_id", uint32(4)},
			{"tokenizer.ggml.add_bos_token", true},
			{"tokenizer.ggml.add_eos_token", true},
		},
		Tensors: []Tensor{
			{Name: "token_embd.weight", Shape: []uint64{uint64(total), uint64(len(tokens))}, Data: embd},
			// Position and token-type embeddings are zero: a bag of words.
			// token_types must be F32 (Ollama's runner crashes on F16).
			{Name: "position_embd.weight", Shape: []uint64{uint64(total), uint64(ctxLen)}, Data: make([]float32, total*ctxLen)},
			{Name: "token_types.weight", Shape: []uint64{uint64(total), 2}, Data: make([]float32, total*2)},
			{Name: "token_embd_norm.weight", Shape: []uint64{uint64(total)}, Data: norm},
			{Name: "token_embd_norm.bias", Shape: []uint64{uint64(total)}, Data: make([]float32, total)},
		},
	}
	return f, f.Validate()
}

// matchable reports whether Ollama's WordPiece can ever look w up: it splits
// input at whitespace and punctuation first.
func matchable(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if unicode.IsSpace(r) || unicode.IsPunct(r) || r == unicode.ReplacementChar {
			return false
		}
	}
	return true
}

// ballasted returns the token embedding matrix, row after row: each of rows
// scaled so the longest has norm 1, followed by Ballast values that give
// every non-zero row the sum 0 and the same norm R. All-zero rows (special
// tokens) stay zero, so LayerNorm maps them to its bias, 0.
//
// For a row u with sum S and squared norm N, the ballast (b1, b2) must solve
// b1+b2 = -S and b1²+b2² = R²-N, so b = -S/2 ± sqrt((R²-N)/2 - S²/4), which
// is real when R² ≥ N + S²/2. R² is the largest N + S²/2 over all rows plus
// a margin, so no square root is ever taken of a negative number.
func ballasted(rows [][]float64, dim int) ([]float32, error) {
	var maxNorm float64
	for _, r := range rows {
		maxNorm = max(maxNorm, math.Sqrt(dot(r, r)))
	}
	if maxNorm == 0 || math.IsInf(maxNorm, 0) {
		return nil, errors.New("gguf: every word vector is zero or too large; check the source vectors")
	}
	var r2 float64
	for _, r := range rows {
		n, s := dot(r, r)/(maxNorm*maxNorm), sum(r)/maxNorm
		r2 = max(r2, n+s*s/2)
	}
	r2 = r2*1.01 + 1e-6

	total := dim + Ballast
	out := make([]float32, len(rows)*total)
	for i, r := range rows {
		if dot(r, r) == 0 && i < 5 {
			continue // special token
		}
		row := out[i*total : (i+1)*total]
		var s, n float64
		for j, x := range r {
			x /= maxNorm
			row[j] = float32(x)
			s += float64(row[j])
			n += float64(row[j]) * float64(row[j])
		}
		d := math.Sqrt(max((r2-n)/2-s*s/4, 0))
		row[dim] = float32(-s/2 + d)
		row[dim+1] = float32(-s/2 - d)
	}
	return out, nil
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func sum(a []float64) float64 {
	var s float64
	for _, x := range a {
		s += x
	}
	return s
}

package gguf

import (
	"cmp"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/ollama/ollama/fs/ggml"
	"github.com/ollama/ollama/tokenizer"
)

// testModel returns a small model with random vectors, deliberately not
// centred (so the ballast has work to do), and weights.
func testModel(words ...string) *StaticModel {
	rng := rand.New(rand.NewPCG(1, 2))
	m := &StaticModel{Name: "test", Words: words, Subwords: len(words), ContextLength: 64}
	for i := range words {
		v := make([]float32, 8)
		for j := range v {
			v[j] = float32(rng.NormFloat64() + 0.7)
		}
		m.Vectors = append(m.Vectors, v)
		m.Weights = append(m.Weights, float32(1+i%3))
	}
	return m
}

// wordPiece builds Ollama's tokenizer from the file's metadata, exactly as
// its bert model does.
func wordPiece(kv ggml.KV) tokenizer.WordPiece {
	vocab := &tokenizer.Vocabulary{
		Values: kv.Strings("tokenizer.ggml.tokens"),
		Scores: kv.Floats("tokenizer.ggml.scores"),
		Types:  kv.Ints("tokenizer.ggml.token_type"),
		AddBOS: kv.Bool("tokenizer.ggml.add_bos_token", true),
		BOS:    []int32{int32(kv.Uint("tokenizer.ggml.cls_token_id"))},
		AddEOS: kv.Bool("tokenizer.ggml.add_eos_token", true),
		EOS:    []int32{int32(kv.Uint("tokenizer.ggml.seperator_token_id"))},
	}
	return tokenizer.NewWordPiece(vocab, true)
}

func TestStaticModelMetadata(t *testing.T) {
	m := testModel("weather", "forecast", "send", "email", "get")
	f, err := m.File()
	if err != nil {
		t.Fatal(err)
	}
	g, _ := decode(t, f)
	kv := g.KV()
	// The accessors of Ollama's bert model; a wrong type reads as the default.
	if got := kv.Architecture(); got != "bert" {
		t.Errorf("architecture = %q, want bert", got)
	}
	uints := []struct {
		key  string
		want uint32
	}{
		{"block_count", 0},
		{"embedding_length", uint32(8 + Ballast)},
		{"context_length", 64},
		{"attention.head_count", 1},
		{"pooling_type", 1},
		{"tokenizer.ggml.cls_token_id", 2},
		{"tokenizer.ggml.seperator_token_id", 3},
	}
	for _, u := range uints {
		if got := kv.Uint(u.key, 999); got != u.want {
			t.Errorf("%s = %d, want %d", u.key, got, u.want)
		}
	}
	if got := kv.Float("attention.layer_norm_epsilon"); got <= 0 {
		t.Errorf("layer_norm_epsilon = %v, want > 0", got)
	}
	if !kv.Bool("normalize_embeddings", false) {
		t.Error("normalize_embeddings is not true")
	}
	if got := kv.String("tokenizer.ggml.model"); got != "bert" {
		t.Errorf("tokenizer model = %q, want bert", got)
	}
	tokens := kv.Strings("tokenizer.ggml.tokens")
	wantTokens := []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]",
		"▁weather", "▁forecast", "▁send", "▁email", "▁get",
		"weather", "forecast", "send", "email", "get"}
	if diff := gocmp.Diff(wantTokens, tokens); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
	shapes := map[string][]uint64{
		"token_embd.weight":      {10, uint64(len(tokens))},
		"position_embd.weight":   {10, 64},
		"token_types.weight":     {10, 2},
		"token_embd_norm.weight": {10},
		"token_embd_norm.bias":   {10},
	}
	got := map[string][]uint64{}
	for _, tn := range g.Tensors().Items() {
		got[tn.Name] = tn.Shape
		if tn.Kind != tensorTypeF32 {
			t.Errorf("tensor %s kind %d, want F32", tn.Name, tn.Kind)
		}
	}
	if diff := gocmp.Diff(shapes, got); diff != "" {
		t.Errorf("tensor shapes (-want +got):\n%s", diff)
	}
}

// TestStaticModelForward runs the forward pass of Ollama's bert model with
// zero layers (embedding lookup, LayerNorm, mean pooling, L2 norm) in plain
// Go over the decoded file and Ollama's tokenizer, and checks the result is
// the normalized weighted sum of the words' vectors.
func TestStaticModelForward(t *testing.T) {
	m := testModel("weather", "forecast", "send", "email", "get", "the", "city")
	f, err := m.File()
	if err != nil {
		t.Fatal(err)
	}
	g, raw := decode(t, f)
	kv := g.KV()
	wp := wordPiece(kv)
	embd := tensorData(t, g, raw, "token_embd.weight")
	lnW := tensorData(t, g, raw, "token_embd_norm.weight")
	lnB := tensorData(t, g, raw, "token_embd_norm.bias")
	dim := int(kv.Uint("embedding_length"))
	eps := float64(kv.Float("attention.layer_norm_epsilon"))
	index := map[string]int{}
	for i, w := range m.Words {
		index[w] = i
	}

	tests := []struct {
		text  string
		words []string // words whose weighted vectors make the expected sum
	}{
		{"weather forecast", []string{"weather", "forecast"}},
		{"Get the WEATHER!", []string{"get", "the", "weather"}},
		{"getWeather", []string{"get", "weather"}},
		{"send_email to the city", []string{"send", "email", "the", "city"}},
		{"weather weather city", []string{"weather", "weather", "city"}},
		{"unknown words only", nil},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			ids, err := wp.Encode(tt.text, true)
			if err != nil {
				t.Fatal(err)
			}
			pooled := make([]float64, dim)
			for _, id := range ids {
				row := embd[int(id)*dim : (int(id)+1)*dim]
				var mean, vr float64
				for _, x := range row {
					mean += float64(x)
				}
				mean /= float64(dim)
				for _, x := range row {
					vr += (float64(x) - mean) * (float64(x) - mean)
				}
				vr /= float64(dim)
				for j, x := range row {
					pooled[j] += ((float64(x)-mean)/math.Sqrt(vr+eps)*float64(lnW[j]) + float64(lnB[j])) / float64(len(ids))
				}
			}
			got := normalize(pooled)
			for j := dim - Ballast; j < dim; j++ {
				if got[j] != 0 {
					t.Errorf("ballast output %d = %v, want 0", j, got[j])
				}
			}
			want := make([]float64, dim)
			for _, w := range tt.words {
				for j, x := range m.Vectors[index[w]] {
					want[j] += float64(m.Weights[index[w]]) * float64(x)
				}
			}
			want = normalize(want)
			if cos := dot(got, want); len(tt.words) > 0 && cos < 0.99999 {
				t.Errorf("cosine(ollama forward, weighted word sum) = %v, want ≈ 1 (ids %v)", cos, ids)
			}
			if len(tt.words) == 0 && dot(got, got) != 0 {
				t.Errorf("text without known words embeds to %v, want zeros", got)
			}
		})
	}
}

func normalize(v []float64) []float64 {
	n := math.Sqrt(dot(v, v))
	out := make([]float64, len(v))
	for i, x := range v {
		if n > 0 {
			out[i] = x / n
		}
	}
	return out
}

func TestStaticModelVocabulary(t *testing.T) {
	m := testModel("Weather", "weather", "e-mail", "two words", "", "ok", "fine")
	m.Subwords = 2
	f, err := m.File()
	if err != nil {
		t.Fatal(err)
	}
	var tokens []string
	for _, kv := range f.KVs {
		if kv.Key == "tokenizer.ggml.tokens" {
			tokens = kv.Value.([]string)
		}
	}
	// Lowercased, repeats and unmatchable words dropped; continuation pieces
	// only for the first Subwords words of at least MinSubwordLen bytes.
	want := []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "▁weather", "▁ok", "▁fine", "weather"}
	if diff := gocmp.Diff(want, tokens); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
	if got, want := m.Dimensions(), 8+Ballast; got != want {
		t.Errorf("Dimensions() = %d, want %d", got, want)
	}
}

func TestStaticModelErrors(t *testing.T) {
	nan := float32(math.NaN())
	tests := []struct {
		name  string
		model StaticModel
		want  string
	}{
		{"no words", StaticModel{}, "no words"},
		{"vector count", StaticModel{Words: []string{"a", "b"}, Vectors: [][]float32{{1}}}, "2 words but 1 vectors"},
		{"weight count", StaticModel{Words: []string{"a"}, Vectors: [][]float32{{1}}, Weights: []float32{1, 2}}, "weights"},
		{"empty vectors", StaticModel{Words: []string{"a"}, Vectors: [][]float32{{}}}, "empty"},
		{"ragged", StaticModel{Words: []string{"a", "b"}, Vectors: [][]float32{{1, 2}, {1}}}, "has 1 values, want 2"},
		{"NaN value", StaticModel{Words: []string{"a"}, Vectors: [][]float32{{nan}}}, "NaN"},
		{"negative weight", StaticModel{Words: []string{"a"}, Vectors: [][]float32{{1}}, Weights: []float32{-1}}, "not negative"},
		{"NaN weight", StaticModel{Words: []string{"a"}, Vectors: [][]float32{{1}}, Weights: []float32{nan}}, "finite"},
		{"all zero", StaticModel{Words: []string{"a"}, Vectors: [][]float32{{0, 0}}}, "zero"},
		{"unmatchable", StaticModel{Words: []string{"a.b"}, Vectors: [][]float32{{1}}}, "no word can ever match"},
		{"context length", StaticModel{Words: []string{"a"}, Vectors: [][]float32{{1}}, ContextLength: 2}, "context length"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.model.File()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("File() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestBallastedRows checks the invariant LayerNorm relies on: every word row
// has sum 0 and the same norm, for vectors of very different sizes and means.
func TestBallastedRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	rows := make([][]float64, 5, 105) // five special tokens
	for i := range 100 {
		r := make([]float64, 16)
		for j := range r {
			r[j] = rng.NormFloat64()*float64(1+i%7) + float64(i%5) - 2
		}
		rows = append(rows, r)
	}
	rows = append(rows, make([]float64, 16)) // a zero word vector
	out, err := ballasted(rows, 16)
	if err != nil {
		t.Fatal(err)
	}
	total := 16 + Ballast
	var norm0 float64
	for i := range rows {
		row := out[i*total : (i+1)*total]
		var s, n float64
		for _, x := range row {
			s += float64(x)
			n += float64(x) * float64(x)
		}
		if i < 5 {
			if n != 0 {
				t.Errorf("special row %d has norm² %v, want 0", i, n)
			}
			continue
		}
		norm0 = cmp.Or(norm0, n)
		if math.Abs(s) > 1e-5 {
			t.Errorf("row %d sums to %v, want 0", i, s)
		}
		if math.Abs(n-norm0) > 1e-5*norm0 {
			t.Errorf("row %d has norm² %v, want %v", i, n, norm0)
		}
	}
}

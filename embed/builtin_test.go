package embed

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var _ Embedder = (*Builtin)(nil)

func newTestBuiltin(t testing.TB) *Builtin {
	t.Helper()
	b, err := NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func embedOne(t testing.TB, b *Builtin, text string) []float32 {
	t.Helper()
	v, err := b.Embed(context.Background(), Query, []string{text})
	if err != nil {
		t.Fatal(err)
	}
	return v[0]
}

func builtinCosine(a, b []float32) float64 {
	var d float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
	}
	return d
}

func TestBuiltinIdentity(t *testing.T) {
	b := newTestBuiltin(t)
	if got := b.ModelID(); got != BuiltinModelID || !strings.HasPrefix(got, "builtin:") {
		t.Errorf("ModelID() = %q", got)
	}
	if got := b.Dimensions(); got != 100 {
		t.Errorf("Dimensions() = %d, want 100", got)
	}
	if n := len(b.table.index); n < 100_000 {
		t.Errorf("vocabulary has %d words, want at least 100,000", n)
	}
}

// TestBuiltinNeighbours checks that related texts are closer than unrelated
// ones: the minimum a user expects of a semantic model.
func TestBuiltinNeighbours(t *testing.T) {
	tests := []struct{ anchor, near, far string }{
		{"weather", "forecast", "invoice"},
		{"send an email", "compose a mail message", "get the stock price"},
		{"get_current_weather", "weather forecast for a city", "create an invoice for a customer"},
		{"search flights", "book an airline ticket", "resize an image"},
		{"listFiles", "show the contents of a directory", "translate text to french"},
	}
	b := newTestBuiltin(t)
	for _, tt := range tests {
		t.Run(tt.anchor, func(t *testing.T) {
			a := embedOne(t, b, tt.anchor)
			near, far := builtinCosine(a, embedOne(t, b, tt.near)), builtinCosine(a, embedOne(t, b, tt.far))
			if near <= far+0.1 {
				t.Errorf("cos(%q, %q) = %.3f, want well above cos(%q) = %.3f", tt.anchor, tt.near, near, tt.far, far)
			}
		})
	}
}

func TestBuiltinVectors(t *testing.T) {
	tests := []struct {
		name string
		text string
		zero bool
	}{
		{"empty", "", true},
		{"punctuation only", "!?, ... --", true},
		{"unknown words only", "xqzvbn qqzzkk", true},
		{"CJK only", "搜索关键词", true},
		{"one word", "weather", false},
		{"camelCase name", "getCurrentWeather", false},
		{"known and unknown words", "xqzvbn weather", false},
		{"inflection of a known word", "hashtags", false},
		{"invalid UTF-8", "weather \xff\xfe forecast", false},
	}
	b := newTestBuiltin(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := embedOne(t, b, tt.text)
			if len(v) != b.Dimensions() {
				t.Fatalf("len = %d, want %d", len(v), b.Dimensions())
			}
			var sq float64
			for _, c := range v {
				if math.IsNaN(float64(c)) || math.IsInf(float64(c), 0) {
					t.Fatalf("component %v", c)
				}
				sq += float64(c) * float64(c)
			}
			if tt.zero && sq != 0 {
				t.Errorf("norm² = %v, want the zero vector", sq)
			}
			if !tt.zero && math.Abs(sq-1) > 1e-5 {
				t.Errorf("norm² = %v, want 1", sq)
			}
		})
	}
}

func TestBuiltinSuffixFallback(t *testing.T) {
	b := newTestBuiltin(t)
	if _, ok := b.table.index["hashtags"]; ok {
		t.Skip("the model knows hashtags itself")
	}
	if diff := cmp.Diff(embedOne(t, b, "hashtag"), embedOne(t, b, "hashtags")); diff != "" {
		t.Errorf("hashtags should embed as hashtag (-hashtag +hashtags):\n%s", diff)
	}
}

func TestBuiltinDeterministicAndKindFree(t *testing.T) {
	b := newTestBuiltin(t)
	texts := []string{"Get the current weather in a given location", "send_slack_message", ""}
	docs, err := b.Embed(context.Background(), Document, texts)
	if err != nil {
		t.Fatal(err)
	}
	queries, err := b.Embed(context.Background(), Query, texts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(docs, queries); diff != "" {
		t.Errorf("Document and Query vectors differ (-doc +query):\n%s", diff)
	}
	for i, text := range texts {
		if diff := cmp.Diff(docs[i], embedOne(t, b, text)); diff != "" {
			t.Errorf("%q: batch and single vectors differ (-batch +single):\n%s", text, diff)
		}
	}
	if got, err := b.Embed(context.Background(), Query, nil); err != nil || len(got) != 0 {
		t.Errorf("Embed(nil) = %v, %v; want empty, nil", got, err)
	}
}

func TestBuiltinCancelled(t *testing.T) {
	b := newTestBuiltin(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Embed(ctx, Query, []string{"weather"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with a cancelled context: err = %v, want context.Canceled", err)
	}
}

func TestBuiltinConcurrent(t *testing.T) {
	texts := []string{"weather forecast", "send an email", "list files in a directory", "convert currency"}
	want := make([][]float32, len(texts))
	for i, text := range texts {
		want[i] = embedOne(t, newTestBuiltin(t), text)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(texts))
	for g := range 8 {
		wg.Go(func() {
			b := newTestBuiltin(t)
			for k := range 20 {
				i := (g + k) % len(texts)
				v, err := b.Embed(context.Background(), Query, texts[i:i+1])
				if err != nil {
					errs <- err.Error()
					return
				}
				if diff := cmp.Diff(want[i], v[0]); diff != "" {
					errs <- texts[i] + ": " + diff
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestBuiltinCorruptModel(t *testing.T) {
	if _, err := newBuiltinTable(builtinModelFile[:len(builtinModelFile)/2]); err == nil {
		t.Error("a truncated model loaded without error")
	}
}

// BenchmarkBuiltinLoad measures decoding the embedded model (done once per
// process by NewBuiltin).
func BenchmarkBuiltinLoad(b *testing.B) {
	b.SetBytes(int64(len(builtinModelFile)))
	for b.Loop() {
		if _, err := newBuiltinTable(builtinModelFile); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuiltinEmbed(b *testing.B) {
	e := newTestBuiltin(b)
	ctx := context.Background()
	b.Run("query", func(b *testing.B) {
		q := []string{"what's the weather like in Paris tomorrow?"}
		for b.Loop() {
			if _, err := e.Embed(ctx, Query, q); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("100 tool descriptions", func(b *testing.B) {
		docs := make([]string, 100)
		for i := range docs {
			docs[i] = "github__create_pull_request. Create a new pull request in a GitHub repository " +
				"from a head branch into a base branch, with a title and an optional body. owner repo title head base body draft"
		}
		for b.Loop() {
			if _, err := e.Embed(ctx, Document, docs); err != nil {
				b.Fatal(err)
			}
		}
	})
}

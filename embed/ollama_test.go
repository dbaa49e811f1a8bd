package embed

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ollama/ollama/api"
)

// fakeOllama is an httptest stand-in for the Ollama API, for the client
// wiring only; ollama_integration_test.go runs against the real server.
type fakeOllama struct {
	t      *testing.T
	models map[string]string // name → digest
	// embed, when set, answers /api/embed instead of the default vectors.
	embed    func(req api.EmbedRequest) (int, any)
	mu       sync.Mutex
	inputs   [][]string // inputs of every /api/embed call
	inFlight atomic.Int32
	maxIn    atomic.Int32
}

func (f *fakeOllama) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	writeJSON := func(code int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(v)
	}
	switch r.URL.Path {
	case "/api/show":
		var req api.ShowRequest
		json.NewDecoder(r.Body).Decode(&req)
		if _, ok := f.models[withTag(req.Model)]; !ok {
			writeJSON(http.StatusNotFound, map[string]string{"error": "model '" + req.Model + "' not found"})
			return
		}
		writeJSON(http.StatusOK, api.ShowResponse{})
	case "/api/tags":
		var list api.ListResponse
		for name, digest := range f.models {
			list.Models = append(list.Models, api.ListModelResponse{Name: name, Model: name, Digest: digest})
		}
		writeJSON(http.StatusOK, list)
	case "/api/embed":
		n := f.inFlight.Add(1)
		defer f.inFlight.Add(-1)
		for m := f.maxIn.Load(); n > m && !f.maxIn.CompareAndSwap(m, n); m = f.maxIn.Load() {
		}
		var req api.EmbedRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			writeJSON(http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		var inputs []string
		for _, x := range req.Input.([]any) {
			inputs = append(inputs, x.(string))
		}
		f.mu.Lock()
		f.inputs = append(f.inputs, inputs)
		f.mu.Unlock()
		time.Sleep(2 * time.Millisecond) // let calls overlap
		if f.embed != nil {
			code, body := f.embed(req)
			writeJSON(code, body)
			return
		}
		resp := api.EmbedResponse{Model: req.Model}
		for _, in := range inputs {
			resp.Embeddings = append(resp.Embeddings, fakeVector(in))
		}
		writeJSON(http.StatusOK, resp)
	default:
		http.NotFound(w, r)
	}
}

// fakeVector is a deterministic, not normalized, vector of a text.
func fakeVector(s string) []float32 {
	return []float32{float32(len(s)), float32(strings.Count(s, "a")), 1}
}

func startFake(t *testing.T, f *fakeOllama) string {
	t.Helper()
	f.t = t
	if f.models == nil {
		f.models = map[string]string{"nomic-embed-text:latest": "sha256:0a109f422b47e3a30ba2b10eca18548e944e8a23073ee3f3e947efcf3c45e59f"}
	}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return srv.URL
}

func quickConfig(host, model string) OllamaConfig {
	return OllamaConfig{Host: host, Model: model, Backoff: time.Millisecond, CallTimeout: 2 * time.Second}
}

func TestNewOllama(t *testing.T) {
	f := &fakeOllama{}
	host := startFake(t, f)
	o, err := NewOllama(t.Context(), quickConfig(host, "nomic-embed-text"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := o.Dimensions(), 3; got != want {
		t.Errorf("Dimensions() = %d, want %d", got, want)
	}
	if got := o.ModelID(); got != "ollama:nomic-embed-text:latest@0a109f422b47+p03aa22a9" {
		t.Errorf("ModelID() = %q, want ollama:nomic-embed-text:latest@0a109f422b47+p03aa22a9", got)
	}
	if diff := cmp.Diff([][]string{{"search_document: tool search"}}, f.inputs); diff != "" {
		t.Errorf("probe inputs (-want +got):\n%s", diff)
	}
}

func TestNewOllamaModelNotFound(t *testing.T) {
	host := startFake(t, &fakeOllama{})
	_, err := NewOllama(t.Context(), quickConfig(host, "mxbai-embed-large"))
	if !errors.Is(err, ErrModelNotFound) {
		t.Fatalf("err = %v, want ErrModelNotFound", err)
	}
	if !strings.Contains(err.Error(), "run `ollama pull mxbai-embed-large`") {
		t.Errorf("err = %q, want it to say `ollama pull mxbai-embed-large`", err)
	}
	if errors.Is(err, ErrUnavailable) {
		t.Errorf("err = %v is also ErrUnavailable", err)
	}
}

func TestNewOllamaUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	start := time.Now()
	_, err = NewOllama(t.Context(), quickConfig(addr, "nomic-embed-text"))
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v to report a refused connection", d)
	}
}

func TestOllamaEmbedBatches(t *testing.T) {
	f := &fakeOllama{}
	host := startFake(t, f)
	cfg := quickConfig(host, "nomic-embed-text")
	cfg.BatchSize, cfg.Concurrency = 10, 3
	o, err := NewOllama(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.inputs = nil
	texts := make([]string, 95)
	for i := range texts {
		texts[i] = strings.Repeat("a", i) + "b"
	}
	got, err := o.Embed(t.Context(), Query, texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.inputs) != 10 {
		t.Errorf("%d /api/embed calls, want 10", len(f.inputs))
	}
	for _, in := range f.inputs {
		if len(in) > 10 {
			t.Errorf("batch of %d texts, want at most 10", len(in))
		}
		for _, s := range in {
			if !strings.HasPrefix(s, "search_query: ") {
				t.Errorf("input %q lacks the query prefix", s)
			}
		}
	}
	if m := f.maxIn.Load(); m > 3 {
		t.Errorf("%d calls in flight, want at most 3", m)
	}
	for i, v := range got {
		want := fakeVector("search_query: " + texts[i])
		normalizeInPlace(want)
		if diff := cmp.Diff(want, v); diff != "" {
			t.Fatalf("vector %d (-want +got):\n%s", i, diff)
		}
	}
	if out, err := o.Embed(t.Context(), Document, nil); err != nil || len(out) != 0 {
		t.Errorf("Embed(nil) = %v, %v; want empty, nil", out, err)
	}
}

func TestOllamaEmbedAnswers(t *testing.T) {
	tests := []struct {
		name      string
		answers   []func(api.EmbedRequest) (int, any) // per call; the last repeats
		wantErr   error                               // errors.Is target; nil: success
		wantText  string                              // substring of the error
		wantCalls int
		want      [][]float32
	}{
		{
			name:      "retry after 500",
			answers:   []func(api.EmbedRequest) (int, any){status(500), status(503), vectors([]float32{3, 4})},
			wantCalls: 3,
			want:      [][]float32{{0.6, 0.8}},
		},
		{
			name:      "500 until retries run out",
			answers:   []func(api.EmbedRequest) (int, any){status(500)},
			wantErr:   ErrUnavailable,
			wantCalls: 3,
		},
		{
			name:      "400 is not retried",
			answers:   []func(api.EmbedRequest) (int, any){status(400)},
			wantText:  "bad",
			wantCalls: 1,
		},
		{
			name:      "model removed",
			answers:   []func(api.EmbedRequest) (int, any){status(404)},
			wantErr:   ErrModelNotFound,
			wantCalls: 1,
		},
		{
			name:      "wrong dimensions",
			answers:   []func(api.EmbedRequest) (int, any){vectors([]float32{1, 2, 3})},
			wantText:  "3 dimensions, want 2",
			wantCalls: 1,
		},
		{
			name: "wrong count",
			answers: []func(api.EmbedRequest) (int, any){func(api.EmbedRequest) (int, any) {
				return 200, api.EmbedResponse{Embeddings: [][]float32{{1, 0}, {0, 1}}}
			}},
			wantText:  "2 embeddings for 1 texts",
			wantCalls: 1,
		},
		{
			// A model that knows none of the text's words: the probe texts
			// confirm that it embeds, so the zero vector stands.
			name:      "zero vector of a working model stays zero",
			answers:   []func(api.EmbedRequest) (int, any){vectors([]float32{0, 0}), probeVectors},
			wantCalls: 2,
			want:      [][]float32{{0, 0}},
		},
		{
			// A server answering zeros to everything, the probe texts
			// included: not embedding at all.
			name:      "zero vectors for everything",
			answers:   []func(api.EmbedRequest) (int, any){vectors([]float32{0, 0})},
			wantErr:   ErrInvalidVector,
			wantText:  "not embedding",
			wantCalls: 2,
		},
		{
			name:      "zero vectors for everything is unavailable",
			answers:   []func(api.EmbedRequest) (int, any){vectors([]float32{0, 0})},
			wantErr:   ErrUnavailable,
			wantCalls: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			f := &fakeOllama{models: map[string]string{"all-minilm:latest": "sha256:1b226e2802db"}}
			probe := true
			f.embed = func(req api.EmbedRequest) (int, any) {
				if probe {
					return vectors([]float32{1, 0})(req)
				}
				n := int(calls.Add(1))
				return tt.answers[min(n, len(tt.answers))-1](req)
			}
			host := startFake(t, f)
			o, err := NewOllama(t.Context(), quickConfig(host, "all-minilm"))
			if err != nil {
				t.Fatal(err)
			}
			if got := o.ModelID(); got != "ollama:all-minilm:latest@1b226e2802db" {
				t.Errorf("ModelID() = %q", got)
			}
			probe = false
			got, err := o.Embed(t.Context(), Document, []string{"x"})
			if n := int(calls.Load()); n != tt.wantCalls {
				t.Errorf("%d calls, want %d", n, tt.wantCalls)
			}
			if tt.wantErr == nil && tt.wantText == "" {
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("vectors (-want +got):\n%s", diff)
				}
				return
			}
			if err == nil {
				t.Fatalf("Embed succeeded, want an error")
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("err = %q, want it to contain %q", err, tt.wantText)
			}
		})
	}
}

func status(code int) func(api.EmbedRequest) (int, any) {
	return func(api.EmbedRequest) (int, any) {
		return code, map[string]string{"error": "bad " + http.StatusText(code)}
	}
}

// probeVectors answers the probe texts as a working model would: a
// different, non-zero vector for each.
func probeVectors(req api.EmbedRequest) (int, any) {
	var out [][]float32
	for _, in := range req.Input.([]any) {
		if strings.Contains(in.(string), "email") {
			out = append(out, []float32{1, 0})
		} else {
			out = append(out, []float32{0, 1})
		}
	}
	return 200, api.EmbedResponse{Embeddings: out}
}

func vectors(v []float32) func(api.EmbedRequest) (int, any) {
	return func(req api.EmbedRequest) (int, any) {
		var out [][]float32
		for range req.Input.([]any) {
			out = append(out, append([]float32(nil), v...))
		}
		return 200, api.EmbedResponse{Embeddings: out}
	}
}

// TestOllamaEmbedDeadline checks that the caller's deadline ends a slow call
// with context.DeadlineExceeded (the engine's embedder_timeout), not
// ErrUnavailable.
func TestOllamaEmbedDeadline(t *testing.T) {
	f := &fakeOllama{}
	var slow atomic.Bool
	f.embed = func(req api.EmbedRequest) (int, any) {
		if slow.Load() {
			time.Sleep(300 * time.Millisecond)
		}
		return vectors([]float32{1, 0})(req)
	}
	host := startFake(t, f)
	o, err := NewOllama(t.Context(), quickConfig(host, "nomic-embed-text"))
	if err != nil {
		t.Fatal(err)
	}
	slow.Store(true)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = o.Embed(ctx, Query, []string{"weather"})
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrUnavailable) {
		t.Errorf("err = %v, want context.DeadlineExceeded and not ErrUnavailable", err)
	}
	if d := time.Since(start); d > 250*time.Millisecond {
		t.Errorf("Embed returned after %v, want about the 50ms deadline", d)
	}
}

func TestNewOllamaConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  OllamaConfig
		want string
	}{
		{"no model", OllamaConfig{}, "model name is empty"},
		{"bad scheme", OllamaConfig{Model: "m", Host: "ftp://x"}, "use http:// or https://"},
		{"negative batch", OllamaConfig{Model: "m", BatchSize: -1}, "must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewOllama(t.Context(), tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestOllamaURL(t *testing.T) {
	tests := []struct{ host, want string }{
		{"", "http://127.0.0.1:11434"},
		{"127.0.0.1:11545", "http://127.0.0.1:11545"},
		{"localhost", "http://localhost:11434"},
		{":9000", "http://127.0.0.1:9000"},
		{"http://ollama:80", "http://ollama:80"},
		{"https://ollama.example.com", "https://ollama.example.com:443"},
		{"HTTP://Ollama/api-proxy/", "http://Ollama:11434/api-proxy"},
		{"[::1]:11434", "http://[::1]:11434"},
		{"[::1]", "http://[::1]:11434"},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			u, err := ollamaURL(tt.host)
			if err != nil {
				t.Fatal(err)
			}
			if got := u.String(); got != tt.want {
				t.Errorf("ollamaURL(%q) = %q, want %q", tt.host, got, tt.want)
			}
		})
	}
}

func TestPrefixesFor(t *testing.T) {
	tests := []struct {
		model     string
		want      Prefixes
		wantKnown bool
	}{
		{"nomic-embed-text", Prefixes{"search_query: ", "search_document: "}, true},
		{"nomic-embed-text:v1.5", Prefixes{"search_query: ", "search_document: "}, true},
		{"nomic-embed-text-v2-moe:latest", Prefixes{"search_query: ", "search_document: "}, true},
		{"library/mxbai-embed-large:335m", Prefixes{Query: retrievalInstruction}, true},
		{"snowflake-arctic-embed:22m", Prefixes{Query: retrievalInstruction}, true},
		{"snowflake-arctic-embed2", Prefixes{Query: "query: "}, true},
		{"embeddinggemma:300m", Prefixes{"task: search result | query: ", "title: none | text: "}, true},
		{"hf.co/Qwen/Qwen3-Embedding-0.6B-GGUF:Q8_0", Prefixes{Query: "Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery:"}, true},
		{"all-minilm:l6-v2", Prefixes{}, true},
		{"bge-m3", Prefixes{}, true},
		{"toolsearch-wink", Prefixes{}, false},
		{"nomic-embed-textual", Prefixes{}, false},
		{"e5x", Prefixes{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			got, known := PrefixesFor(tt.model)
			if diff := cmp.Diff(tt.want, got); diff != "" || known != tt.wantKnown {
				t.Errorf("PrefixesFor(%q) known=%v (want %v), (-want +got):\n%s", tt.model, known, tt.wantKnown, diff)
			}
		})
	}
}

// TestNormalizeInPlace covers what JSON cannot carry to the fake server:
// Ollama answers 500 rather than send NaN, but the check stays.
func TestNormalizeInPlace(t *testing.T) {
	tests := []struct {
		name    string
		in      []float32
		want    []float32
		wantErr bool
	}{
		{"unit", []float32{3, 4}, []float32{0.6, 0.8}, false},
		{"zero", []float32{0, 0}, []float32{0, 0}, false},
		{"NaN", []float32{float32(math.NaN()), 1}, nil, true},
		{"Inf", []float32{float32(math.Inf(-1)), 1}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := normalizeInPlace(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if tt.want != nil {
				if diff := cmp.Diff(tt.want, tt.in); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestOllamaEmbedSameVectorForDifferentTexts: one vector for every text of a
// batch is confirmed with the probe texts: an embedder that also gives them
// one vector is refused (ErrInvalidVector), one that tells them apart is not
// (the texts differed only in words the model ignores).
func TestOllamaEmbedSameVectorForDifferentTexts(t *testing.T) {
	tests := []struct {
		name    string
		probes  func(api.EmbedRequest) (int, any)
		wantErr bool
	}{
		{"constant answer for everything", vectors([]float32{0.6, 0.8}), true},
		{"probes told apart", probeVectors, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeOllama{models: map[string]string{"all-minilm:latest": "sha256:1b226e2802db"}}
			var calls atomic.Int32
			f.embed = func(req api.EmbedRequest) (int, any) {
				switch calls.Add(1) {
				case 1: // the dimension probe of NewOllama
					return vectors([]float32{1, 0})(req)
				case 2:
					return vectors([]float32{0.6, 0.8})(req)
				default:
					return tt.probes(req)
				}
			}
			o, err := NewOllama(t.Context(), quickConfig(startFake(t, f), "all-minilm"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := o.Embed(t.Context(), Document, []string{"send mail", "read file", "get weather"})
			if tt.wantErr {
				if !errors.Is(err, ErrInvalidVector) || !errors.Is(err, ErrUnavailable) {
					t.Fatalf("Embed = %v, %v; want an error wrapping ErrInvalidVector and ErrUnavailable", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 3 {
				t.Errorf("%d vectors, want 3", len(got))
			}
		})
	}
}

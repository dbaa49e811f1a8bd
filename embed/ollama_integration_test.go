package embed

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/embed/gguf"
	"github.com/toolsearch/toolsearch/embed/gguf/topics"
	"github.com/toolsearch/toolsearch/embed/ollamatest"
)

// These tests run against a real Ollama server serving a model built by
// embed/gguf from topics.TopicModel. They find the server as follows:
//
//   - TOOLSEARCH_OLLAMA_HOST set: use the server there (tests that stop and
//     restart the server still need a binary, below);
//   - else start a private server (package ollamatest) from
//     TOOLSEARCH_OLLAMA_BIN, .tmp/bin/ollama (built by `make ollama`) or
//     `ollama` on PATH.
//
// Without any of them they skip, or fail when CI=true: CI must provide Ollama.

// integrationModel is the name the topic model is registered under.
const integrationModel = "toolsearch-topics-test"

// registerTopicModel builds the topic model's GGUF and registers it.
func registerTopicModel(t *testing.T, host string) {
	t.Helper()
	f, err := topics.TopicModel().File()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	start := time.Now()
	if err := CreateOllamaModel(ctx, host, integrationModel, buf.Bytes(), map[string]any{"num_thread": 1}); err != nil {
		t.Fatalf("register the topic model: %v", err)
	}
	t.Logf("registered %s (%d bytes) in %v", integrationModel, buf.Len(), time.Since(start).Round(time.Millisecond))
}

// integrationHost returns the address of a server serving the topic model.
func integrationHost(t *testing.T) string {
	t.Helper()
	if h := ollamatest.ExternalHost(); h != "" {
		registerTopicModel(t, h)
		return h
	}
	return startOllama(t).Addr
}

// startOllama starts a private server and registers the topic model.
func startOllama(t *testing.T) *ollamatest.Server {
	t.Helper()
	s := ollamatest.Start(t)
	registerTopicModel(t, s.Addr)
	return s
}

func integrationConfig(host string) OllamaConfig {
	return OllamaConfig{Host: host, Model: integrationModel, CallTimeout: 5 * time.Second, Backoff: 50 * time.Millisecond}
}

// referenceVector is what the topic model should embed text to: the
// normalized weighted sum of its known words' vectors (Ballast zeros added),
// for texts whose unknown words do not split into known pieces.
func referenceVector(m *gguf.StaticModel, text string) []float32 {
	index := make(map[string]int, len(m.Words))
	for i, w := range m.Words {
		index[w] = i
	}
	sum := make([]float32, m.Dimensions())
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if i, ok := index[w]; ok {
			for j, x := range m.Vectors[i] {
				sum[j] += m.Weights[i] * x
			}
		}
	}
	_ = normalizeInPlace(sum)
	return sum
}

func cosine(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestOllamaIntegrationEmbed(t *testing.T) {
	host := integrationHost(t)
	ctx := t.Context()
	start := time.Now()
	o, err := NewOllama(ctx, integrationConfig(host))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("NewOllama (show, list, first embed with model load): %v", time.Since(start).Round(time.Millisecond))
	m := topics.TopicModel()
	if got, want := o.Dimensions(), m.Dimensions(); got != want {
		t.Fatalf("Dimensions() = %d, want %d", got, want)
	}
	if id := o.ModelID(); !strings.HasPrefix(id, "ollama:"+integrationModel+":latest@") || strings.Contains(id, "+p") {
		t.Errorf("ModelID() = %q, want ollama:%s:latest@<digest> without prefixes", id, integrationModel)
	}

	t.Run("matches the word vectors", func(t *testing.T) {
		texts := []string{"weather forecast", "Send an EMAIL with an attachment!", "read_file from disk", "meeting xyzzy schedule", "the"}
		got, err := o.Embed(ctx, Query, texts)
		if err != nil {
			t.Fatal(err)
		}
		for i, text := range texts {
			if cos := cosine(got[i], referenceVector(m, text)); cos < 0.999 {
				t.Errorf("%q: cosine(Ollama, reference) = %.5f, want ≥ 0.999", text, cos)
			}
		}
	})

	t.Run("unknown words embed to zero", func(t *testing.T) {
		got, err := o.Embed(ctx, Document, []string{"xyzzy plugh", ""})
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range got {
			if n := cosine(v, v); n != 0 {
				t.Errorf("vector %d has norm² %v, want 0", i, n)
			}
		}
	})

	t.Run("neighbours", func(t *testing.T) {
		docs := []string{
			"get_weather: get the weather forecast and temperature for a city",
			"send_email: send an email message to a recipient",
			"read_file: read a file from a directory on disk",
			"create_event: schedule a meeting in the calendar",
			"create_pull_request: open a pull request in a github repository",
			"transfer_money: transfer money between bank accounts",
			"get_directions: directions and route to an address",
		}
		dv, err := o.Embed(ctx, Document, docs)
		if err != nil {
			t.Fatal(err)
		}
		tests := []struct{ query, want string }{
			{"weather forecast", "get_weather"},
			{"will it rain tomorrow", "get_weather"},
			{"compose a mail", "send_email"},
			{"upload document", "read_file"},
			{"book an appointment", "create_event"},
			{"merge my branch", "create_pull_request"},
			{"pay the invoice", "transfer_money"},
			{"nearby places in the city", "get_directions"},
		}
		queries := make([]string, len(tests))
		for i, tt := range tests {
			queries[i] = tt.query
		}
		qv, err := o.Embed(ctx, Query, queries)
		if err != nil {
			t.Fatal(err)
		}
		for i, tt := range tests {
			best, bestScore := "", math.Inf(-1)
			for j, d := range docs {
				if s := cosine(qv[i], dv[j]); s > bestScore {
					best, bestScore = strings.SplitN(d, ":", 2)[0], s
				}
			}
			if best != tt.want {
				t.Errorf("query %q: nearest tool %s (%.3f), want %s", tt.query, best, bestScore, tt.want)
			}
		}
		// The brief's example, as a direct comparison.
		v, err := o.Embed(ctx, Query, []string{"weather forecast", "get the weather", "send an email"})
		if err != nil {
			t.Fatal(err)
		}
		if near, far := cosine(v[0], v[1]), cosine(v[0], v[2]); near <= far+0.3 {
			t.Errorf("cos(weather forecast, get the weather) = %.3f, cos(…, send an email) = %.3f; want the first clearly larger", near, far)
		}
	})

	t.Run("latency", func(t *testing.T) {
		hundred := make([]string, 100)
		for i := range hundred {
			hundred[i] = fmt.Sprintf("tool %d: send an email message about the weather forecast to a city", i)
		}
		for _, n := range []int{1, 100} {
			var times []time.Duration
			for range 5 {
				start := time.Now()
				if _, err := o.Embed(ctx, Document, hundred[:n]); err != nil {
					t.Fatal(err)
				}
				times = append(times, time.Since(start))
			}
			slices.Sort(times)
			t.Logf("Embed of %3d texts: median %v (min %v, max %v)", n, times[2].Round(time.Microsecond), times[0].Round(time.Microsecond), times[4].Round(time.Microsecond))
		}
	})
}

// TestOllamaIntegrationRestart kills the server in the middle of a large
// Embed, checks the error is ErrUnavailable and comes quickly, then restarts
// the server and checks Embed works again with the same Ollama value.
func TestOllamaIntegrationRestart(t *testing.T) {
	s := startOllama(t)
	ctx := t.Context()
	cfg := integrationConfig(s.Addr)
	cfg.BatchSize = 50
	o, err := NewOllama(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if srv, runner := s.RSSMB(); srv > 0 {
		t.Logf("RSS after the first embedding: server %.0f MB, runner %.0f MB", srv, runner)
	}

	texts := make([]string, 20000)
	for i := range texts {
		texts[i] = fmt.Sprintf("document %d about the weather forecast and an email message", i)
	}
	done := make(chan error, 1)
	go func() {
		_, err := o.Embed(ctx, Document, texts)
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	killed := time.Now()
	s.Stop(t)
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Embed of 20000 texts finished before the server was killed; make the batch larger")
		}
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("Embed during the kill: err = %v, want ErrUnavailable", err)
		}
		t.Logf("Embed failed %v after the kill: %v", time.Since(killed).Round(time.Millisecond), err)
	case <-time.After(cfg.CallTimeout + 5*time.Second):
		t.Fatal("Embed still running long after the server was killed")
	}

	start := time.Now()
	_, err = o.Embed(ctx, Query, []string{"weather"})
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Embed with the server down: err = %v, want ErrUnavailable", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Embed with the server down took %v, want well under 2s (retries and backoff only)", d)
	}

	s.Start(t)
	start = time.Now()
	v, err := o.Embed(ctx, Query, []string{"weather forecast"})
	if err != nil {
		t.Fatalf("Embed after the restart: %v", err)
	}
	t.Logf("first Embed after the restart (model load): %v", time.Since(start).Round(time.Millisecond))
	if cos := cosine(v[0], referenceVector(topics.TopicModel(), "weather forecast")); cos < 0.999 {
		t.Errorf("after the restart: cosine(Ollama, reference) = %.5f, want ≥ 0.999", cos)
	}
}

// TestOllamaIntegrationModelNotFound checks the start-up error for a model
// the server does not have.
func TestOllamaIntegrationModelNotFound(t *testing.T) {
	host := integrationHost(t)
	_, err := NewOllama(t.Context(), OllamaConfig{Host: host, Model: "no-such-embedding-model"})
	if !errors.Is(err, ErrModelNotFound) || !strings.Contains(err.Error(), "ollama pull no-such-embedding-model") {
		t.Fatalf("err = %v, want ErrModelNotFound saying `ollama pull no-such-embedding-model`", err)
	}
}

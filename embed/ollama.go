package embed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"
)

// Defaults of OllamaConfig.
const (
	// DefaultOllamaHost is Ollama's own default address.
	DefaultOllamaHost = "127.0.0.1:11434"
	// DefaultOllamaBatchSize is how many texts go in one /api/embed call.
	// Ollama embeds the texts of one call in parallel on its side; 64 keeps
	// a call of short tool texts well under a second on a small model.
	DefaultOllamaBatchSize = 64
	// DefaultOllamaConcurrency is how many /api/embed calls run at once.
	DefaultOllamaConcurrency = 2
	// DefaultOllamaCallTimeout bounds one HTTP call, including a model load
	// on the first call (seconds for large models on CPU).
	DefaultOllamaCallTimeout = 30 * time.Second
	// DefaultOllamaRetries is how many times a call is retried after a
	// transient failure: with DefaultOllamaBackoff a dead server is reported
	// after 100+200 ms of waiting plus the failed calls.
	DefaultOllamaRetries = 2
	// DefaultOllamaBackoff is the wait before the first retry; it doubles on
	// each further retry, up to maxOllamaBackoff.
	DefaultOllamaBackoff = 100 * time.Millisecond
	// DefaultOllamaKeepAlive is how long Ollama keeps the model loaded after
	// a call. Longer than Ollama's own 5 minutes, so that a query after a
	// quiet spell does not pay a model load and miss its time budget.
	DefaultOllamaKeepAlive = time.Hour
)

// maxOllamaBackoff caps the wait between retries.
const maxOllamaBackoff = 2 * time.Second

// ollamaProbeText is embedded once at start-up to learn the dimensions.
const ollamaProbeText = "tool search"

// OllamaConfig configures an Ollama embedder. Only Model is required; zero
// values take the documented defaults. The package never reads environment
// variables: cmd passes OLLAMA_HOST in Host.
type OllamaConfig struct {
	// Host is the server address: "host:port", "host", "http://host:port"
	// or "https://host"; a missing port means 11434 (http) or 443 (https).
	// Empty means DefaultOllamaHost.
	Host string
	// Model is the model name as Ollama knows it, e.g. "nomic-embed-text" or
	// "all-minilm:l6-v2". A name without a tag means ":latest".
	Model string
	// BatchSize is the number of texts per /api/embed call; 0 means
	// DefaultOllamaBatchSize.
	BatchSize int
	// Concurrency is the number of calls in flight; 0 means
	// DefaultOllamaConcurrency.
	Concurrency int
	// CallTimeout bounds each HTTP call; 0 means DefaultOllamaCallTimeout.
	// The context passed to Embed can only shorten it.
	CallTimeout time.Duration
	// Retries is how many times a call is retried after a transient error
	// (connection refused or reset, timeout, 429, 5xx), never after another
	// 4xx; 0 means DefaultOllamaRetries and a negative value none.
	Retries int
	// Backoff is the wait before the first retry, doubled on each further
	// one; 0 means DefaultOllamaBackoff.
	Backoff time.Duration
	// KeepAlive is how long Ollama keeps the model in memory after a call;
	// 0 means DefaultOllamaKeepAlive and a negative value forever.
	KeepAlive time.Duration
	// Prefixes, when not nil, replaces the table entry (see PrefixesFor) of
	// the model's family.
	Prefixes *Prefixes
	// HTTPClient, when not nil, makes the calls (e.g. with a custom
	// transport); its Timeout should be zero, CallTimeout applies per call.
	HTTPClient *http.Client
}

// Ollama embeds texts with a model served by an Ollama server, through
// github.com/ollama/ollama/api. It is safe for concurrent use.
type Ollama struct {
	client    *api.Client
	host      string // base URL, for messages
	model     string
	modelID   string
	dims      int
	prefixes  Prefixes
	batch     int
	workers   int
	timeout   time.Duration
	retries   int
	backoff   time.Duration
	keepAlive *api.Duration
}

var _ Embedder = (*Ollama)(nil)

// NewOllama connects to the Ollama server of cfg, checks that the model is
// installed (with /api/show; ErrModelNotFound, saying to run `ollama pull
// MODEL`, when it is not) and learns the model's dimensions from its
// embedding length (or, if the server does not report it, by embedding one
// probe text). An unreachable or failing server gives an error wrapping
// ErrUnavailable, after cfg.Retries retries. ctx bounds the whole start-up.
func NewOllama(ctx context.Context, cfg OllamaConfig) (*Ollama, error) {
	model := strings.TrimSpace(cfg.Model)
	if model == "" {
		return nil, errors.New("ollama: model name is empty; set the Ollama model, e.g. nomic-embed-text")
	}
	base, err := ollamaURL(cfg.Host)
	if err != nil {
		return nil, err
	}
	if cfg.BatchSize < 0 || cfg.Concurrency < 0 || cfg.CallTimeout < 0 || cfg.Backoff < 0 {
		return nil, fmt.Errorf("ollama: batch size %d, concurrency %d, call timeout %v and backoff %v must not be negative",
			cfg.BatchSize, cfg.Concurrency, cfg.CallTimeout, cfg.Backoff)
	}
	httpClient := cfg.HTTPClient
	if httpClient == nil {
		httpClient = &http.Client{Transport: http.DefaultTransport}
	}
	o := &Ollama{
		client:  api.NewClient(base, httpClient),
		host:    base.String(),
		model:   model,
		batch:   positiveOr(cfg.BatchSize, DefaultOllamaBatchSize),
		workers: positiveOr(cfg.Concurrency, DefaultOllamaConcurrency),
		timeout: positiveOr(cfg.CallTimeout, DefaultOllamaCallTimeout),
		retries: cfg.Retries,
		backoff: positiveOr(cfg.Backoff, DefaultOllamaBackoff),
	}
	if o.retries == 0 {
		o.retries = DefaultOllamaRetries
	}
	o.retries = max(o.retries, 0)
	switch {
	case cfg.KeepAlive == 0:
		o.keepAlive = &api.Duration{Duration: DefaultOllamaKeepAlive}
	case cfg.KeepAlive < 0:
		o.keepAlive = &api.Duration{Duration: -1}
	default:
		o.keepAlive = &api.Duration{Duration: cfg.KeepAlive}
	}
	if cfg.Prefixes != nil {
		o.prefixes = *cfg.Prefixes
	} else {
		o.prefixes, _ = PrefixesFor(model)
	}

	var show *api.ShowResponse
	err = o.call(ctx, "show model", func(ctx context.Context) (err error) {
		show, err = o.client.Show(ctx, &api.ShowRequest{Model: model})
		return err
	})
	if err != nil {
		return nil, err
	}
	digest := ""
	_ = o.call(ctx, "list models", func(ctx context.Context) error {
		list, err := o.client.List(ctx)
		if err == nil {
			digest = findDigest(list.Models, model)
		}
		return err
	})
	o.modelID = ollamaModelID(model, digest, o.prefixes)

	// The model's embedding length is the length of its vectors; reading it
	// from /api/show means a start-up embeds nothing, so a restart over a
	// warm cache makes no /api/embed call at all. Models that do not report
	// it are probed with one embedding. Embed checks every vector's length
	// against it either way.
	if o.dims = embeddingLength(show); o.dims > 0 {
		return o, nil
	}
	vecs, err := o.embedBatch(ctx, []string{o.prefixes.Document + ollamaProbeText}, 0)
	if err != nil {
		return nil, fmt.Errorf("ollama: probe embedding: %w", err)
	}
	if len(vecs) != 1 || len(vecs[0]) == 0 {
		return nil, fmt.Errorf("ollama: model %q returned no embedding; is it an embedding model? try nomic-embed-text", model)
	}
	o.dims = len(vecs[0])
	return o, nil
}

// embeddingLength returns the "<architecture>.embedding_length" that
// /api/show reports in model_info, or 0 when it is missing.
func embeddingLength(show *api.ShowResponse) int {
	if show == nil {
		return 0
	}
	arch, _ := show.ModelInfo["general.architecture"].(string)
	if arch == "" {
		return 0
	}
	switch n := show.ModelInfo[arch+".embedding_length"].(type) {
	case float64:
		if n > 0 && n == float64(int(n)) {
			return int(n)
		}
	case int:
		return max(n, 0)
	}
	return 0
}

// Dimensions is the length of every vector Embed returns.
func (o *Ollama) Dimensions() int { return o.dims }

// ModelID is "ollama:<model>:<tag>@<digest prefix>" (the tag ":latest" when
// the name has none, the digest when the server lists it), followed by
// "+p<hash>" when the model family uses prefixes, so that a new model
// version or a new prefix changes the cache key. Example:
// "ollama:nomic-embed-text:latest@0a109f422b47+p03aa22a9".
func (o *Ollama) ModelID() string { return o.modelID }

// Embed returns one L2-normalized vector per text, in order, prefixing each
// text for its kind. Texts go to Ollama in batches of BatchSize, at most
// Concurrency calls at once; the first failure cancels the other calls.
// Errors wrap ErrUnavailable when the server is unreachable or failing after
// the retries, ErrModelNotFound when the model was removed, and ctx.Err() when
// ctx ends first.
//
// Every answer is validated before it is returned: the number of vectors,
// their length, finite values (else an error wrapping ErrInvalidVector). An
// answer with an all-zero vector, or with one vector for every text of a
// batch of different texts, is confirmed by embedding the probe texts: if
// they too come back zero or equal, the server is not embedding (a broken
// model, a misbehaving proxy) and Embed fails with ErrInvalidVector and
// ErrUnavailable; otherwise the answer stands (a model that knows none of a
// text's words gives it a zero vector).
func (o *Ollama) Embed(ctx context.Context, kind Kind, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	if len(texts) == 0 {
		return out, nil
	}
	prefix := o.prefixes.For(kind)
	inputs := make([]string, len(texts))
	for i, t := range texts {
		inputs[i] = prefix + t
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sem := make(chan struct{}, o.workers)
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	for start := 0; start < len(inputs); start += o.batch {
		end := min(start+o.batch, len(inputs))
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			vecs, err := o.embedBatch(ctx, inputs[start:end], o.dims)
			if err == nil && suspicious(inputs[start:end], vecs) {
				err = o.verify(ctx, end-start)
			}
			if err != nil {
				once.Do(func() { firstErr = err; cancel(err) })
				return
			}
			copy(out[start:end], vecs)
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("ollama: embed %d texts: %w", len(texts), context.Cause(ctx))
	}
	return out, nil
}

// embedBatch embeds one batch with retries and checks the answer: one vector
// per input, each of length dims (any length when dims is 0), finite. It
// returns them L2-normalized.
func (o *Ollama) embedBatch(ctx context.Context, inputs []string, dims int) ([][]float32, error) {
	var resp *api.EmbedResponse
	err := o.call(ctx, fmt.Sprintf("embed %d texts", len(inputs)), func(ctx context.Context) error {
		r, err := o.client.Embed(ctx, &api.EmbedRequest{Model: o.model, Input: inputs, KeepAlive: o.keepAlive})
		resp = r
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(resp.Embeddings) != len(inputs) {
		return nil, fmt.Errorf("ollama: model %q returned %d embeddings for %d texts; check the server version: %w: %w", o.model, len(resp.Embeddings), len(inputs), ErrInvalidVector, ErrUnavailable)
	}
	for i, v := range resp.Embeddings {
		if dims > 0 && len(v) != dims {
			return nil, fmt.Errorf("ollama: model %q returned %d dimensions, want %d; was the model replaced? restart to re-embed: %w: %w", o.model, len(v), dims, ErrInvalidVector, ErrUnavailable)
		}
		if err := normalizeInPlace(v); err != nil {
			return nil, fmt.Errorf("ollama: model %q, text %d: %w: %w: %w", o.model, i, err, ErrInvalidVector, ErrUnavailable)
		}
	}
	return resp.Embeddings, nil
}

// verify embeds the probe texts after a suspicious answer to a batch of n
// texts, and returns an error wrapping ErrInvalidVector and ErrUnavailable
// when their vectors show the server is not embedding.
func (o *Ollama) verify(ctx context.Context, n int) error {
	probes := make([]string, len(probeTexts))
	for i, t := range probeTexts {
		probes[i] = o.prefixes.Document + t
	}
	vecs, err := o.embedBatch(ctx, probes, o.dims)
	if err != nil {
		return err
	}
	if err := checkProbes(vecs); err != nil {
		return fmt.Errorf("ollama: model %q at %s answered %d texts with all-zero or identical vectors, and then %v: "+
			"it is not embedding (a broken model or a proxy in between?); nothing is cached, lexical search answers meanwhile: %w: %w",
			o.model, o.host, n, err, ErrInvalidVector, ErrUnavailable)
	}
	return nil
}

// normalizeInPlace scales v to unit length, leaving an all-zero vector (no
// known word) as it is, and rejects NaN and infinite values.
func normalizeInPlace(v []float32) error {
	var sum float64
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return errors.New("embedding contains NaN or infinite values")
		}
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return nil
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
	return nil
}

// call runs fn with a per-call timeout, retrying transient failures with
// exponential backoff, and maps the final error: 404 → ErrModelNotFound,
// transient → ErrUnavailable, the caller's context ending → its error.
func (o *Ollama) call(ctx context.Context, what string, fn func(context.Context) error) error {
	wait := o.backoff
	var err error
	for attempt := 0; ; attempt++ {
		callCtx, cancel := context.WithTimeout(ctx, o.timeout)
		err = fn(callCtx)
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("ollama: %s with model %q: %w", what, o.model, context.Cause(ctx))
		}
		if !transient(err) || attempt >= o.retries {
			break
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("ollama: %s with model %q: %w (last error: %v)", what, o.model, context.Cause(ctx), err)
		}
		wait = min(2*wait, maxOllamaBackoff)
	}
	switch {
	case statusCode(err) == http.StatusNotFound:
		return fmt.Errorf("ollama: model %q is not installed on %s; run `ollama pull %s`: %w: %w", o.model, o.host, o.model, ErrModelNotFound, err)
	case transient(err):
		return fmt.Errorf("ollama: %s with model %q: server at %s unavailable after %d attempts; is `ollama serve` running there? %w: %w",
			what, o.model, o.host, o.retries+1, ErrUnavailable, err)
	default:
		return fmt.Errorf("ollama: %s with model %q at %s: %w", what, o.model, o.host, err)
	}
}

// ollamaURL turns a host setting into the server's base URL, as Ollama's own
// client reads OLLAMA_HOST.
func ollamaURL(host string) (*url.URL, error) {
	host = strings.TrimSpace(host)
	if host == "" {
		host = DefaultOllamaHost
	}
	scheme, hostport, ok := strings.Cut(host, "://")
	if !ok {
		scheme, hostport = "http", host
	}
	scheme = strings.ToLower(scheme)
	defaultPort := "11434"
	switch scheme {
	case "http":
	case "https":
		defaultPort = "443"
	default:
		return nil, fmt.Errorf("ollama: host %q has scheme %q; use http:// or https://", host, scheme)
	}
	hostport, path, _ := strings.Cut(hostport, "/")
	h, port, err := net.SplitHostPort(hostport)
	if err != nil { // no port: "host", "[::1]" or a bare IPv6 address
		h, port = strings.Trim(hostport, "[]"), defaultPort
	}
	if h == "" {
		h = "127.0.0.1"
	}
	u := &url.URL{Scheme: scheme, Host: net.JoinHostPort(h, port)}
	if path != "" {
		u.Path = "/" + strings.TrimSuffix(path, "/")
	}
	if _, err := url.Parse(u.String()); err != nil {
		return nil, fmt.Errorf("ollama: host %q is not a valid address: %w", host, err)
	}
	return u, nil
}

// findDigest returns the digest of the model in a /api/tags listing, or "".
func findDigest(models []api.ListModelResponse, model string) string {
	want := withTag(model)
	for _, m := range models {
		if withTag(m.Name) == want || withTag(m.Model) == want {
			return m.Digest
		}
	}
	return ""
}

// withTag adds ":latest" to a model name without a tag.
func withTag(model string) string {
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); strings.IndexByte(name[i+1:], ':') < 0 {
		name += ":latest"
	}
	return name
}

// ollamaModelID builds the model ID; see Ollama.ModelID.
func ollamaModelID(model, digest string, p Prefixes) string {
	id := "ollama:" + withTag(model)
	if d := strings.TrimPrefix(digest, "sha256:"); d != "" {
		id += "@" + d[:min(12, len(d))]
	}
	if p != (Prefixes{}) {
		h := sha256.Sum256([]byte(p.Query + "\x00" + p.Document))
		id += "+p" + hex.EncodeToString(h[:4])
	}
	return id
}

func positiveOr[T int | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

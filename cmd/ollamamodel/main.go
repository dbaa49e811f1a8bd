// Command ollamamodel builds an Ollama embedding model from static word
// vectors: a GGUF file (a BERT encoder with zero layers and mean pooling,
// see package embed/gguf) and a Modelfile beside it, so that a real Ollama
// server serves the same word vectors as toolsearch's built-in model.
//
// Usage:
//
//	ollamamodel -vectors embed/model/wink-sg-100d.bin -out .tmp/ollama/model
//	ollamamodel -text glove.6B.100d.txt -top 100000 -out DIR
//	ollamamodel -demo -out DIR -create toolsearch-topics
//
// Then register it: `cd DIR && ollama create NAME -f Modelfile`, or pass
// -create NAME to register it through the API of the server at -host
// (default $OLLAMA_HOST, else 127.0.0.1:11434).
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/embed/gguf"
)

// defaultSubwords is how many of the most frequent words get a continuation
// piece, so that Ollama's WordPiece splits compounds such as "getweather" or
// "sendmessage". 20k pieces add ≈ 8 MB to a 100-dimensional model.
const defaultSubwords = 20000

// defaultTop is how many of the most frequent words the model keeps. Ollama
// v0.17.4 re-reads the model's vocabulary from disk on every /api/embed call
// (≈ 2 syscalls per token), so each call costs time in proportion to the
// vocabulary: measured on a loaded 2-core machine, one text took ≈ 7 ms with
// 10k tokens, ≈ 15–20 ms with 50–70k and ≈ 60 ms with 170k. In the tool
// texts of ../shared/bench, the 50k most frequent words of the built-in model
// cover 94–99% of the word occurrences that all its 150k words cover; -top 0
// keeps every word.
const defaultTop = 50000

// modelfile is written beside model.gguf. One thread: on small machines the
// default (all cores) makes a tiny model's latency jump 10–100×.
const modelfile = "FROM ./model.gguf\nPARAMETER num_thread 1\n"

type options struct {
	vectors, text string
	demo          bool
	out, name     string
	top, subwords int
	context       int
	sifA          float64
	create, host  string
}

func main() {
	var o options
	fs := flag.NewFlagSet("ollamamodel", flag.ContinueOnError)
	fs.StringVar(&o.vectors, "vectors", "", "built-in model file (TSWV format, as in embed/model/) to read word vectors from")
	fs.StringVar(&o.text, "text", "", "word vectors in text format (\"word v1 v2 …\" per line, most frequent first; an optional \"count dims\" header)")
	fs.BoolVar(&o.demo, "demo", false, "use a small built-in topic vocabulary (for tests and smoke checks)")
	fs.StringVar(&o.out, "out", ".tmp/ollama/model", "directory to write model.gguf and Modelfile to")
	fs.StringVar(&o.name, "name", "", "model name written in the GGUF metadata (default from the source)")
	fs.IntVar(&o.top, "top", defaultTop, "keep only the N most frequent words (0: all); each /api/embed call costs time in proportion to the vocabulary")
	fs.IntVar(&o.subwords, "subwords", defaultSubwords, "give the N most frequent words a continuation piece for splitting compounds (0: none)")
	fs.IntVar(&o.context, "context", gguf.DefaultContextLength, "context length, in tokens")
	fs.Float64Var(&o.sifA, "sif-a", defaultSIFA, "smooth inverse frequency parameter a: word weight a/(a+p(word)); 0 disables weighting")
	fs.StringVar(&o.create, "create", "", "register the model under this name on the Ollama server at -host")
	fs.StringVar(&o.host, "host", os.Getenv("OLLAMA_HOST"), "Ollama server for -create (default $OLLAMA_HOST, else "+embed.DefaultOllamaHost+")")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(context.Background(), log, o); err != nil {
		fmt.Fprintln(os.Stderr, "ollamamodel:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, log *slog.Logger, o options) error {
	start := time.Now()
	src, err := load(o)
	if err != nil {
		return err
	}
	if o.top > 0 {
		src = src.truncate(o.top)
	}
	m := &gguf.StaticModel{
		Name:          firstNonEmpty(o.name, src.name),
		Words:         src.words,
		Vectors:       src.vectors,
		Weights:       src.weights,
		Subwords:      o.subwords,
		ContextLength: o.context,
	}
	if m.Weights == nil && o.sifA > 0 && src.ranks != nil {
		m.Weights = sifWeights(src.ranks, src.sourceSize, o.sifA)
	}
	f, err := m.File()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	ggufPath := filepath.Join(o.out, "model.gguf")
	if err := writeFileAtomic(ggufPath, buf.Bytes()); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(o.out, "Modelfile"), []byte(modelfile)); err != nil {
		return err
	}
	log.Info("model written", "path", ggufPath, "words", len(m.Words), "dims", m.Dimensions(),
		"bytes", buf.Len(), "elapsed", time.Since(start).Round(time.Millisecond))

	if o.create == "" {
		log.Info("register it with: cd " + o.out + " && ollama create NAME -f Modelfile")
		return nil
	}
	t := time.Now()
	if err := embed.CreateOllamaModel(ctx, o.host, o.create, buf.Bytes(), map[string]any{"num_thread": 1}); err != nil {
		return err
	}
	log.Info("model registered", "name", o.create, "host", firstNonEmpty(o.host, embed.DefaultOllamaHost),
		"elapsed", time.Since(t).Round(time.Millisecond))
	return nil
}

func load(o options) (*source, error) {
	n := 0
	for _, set := range []bool{o.vectors != "", o.text != "", o.demo} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, errors.New("pass exactly one of -vectors FILE, -text FILE or -demo")
	}
	switch {
	case o.vectors != "":
		return loadBuiltinFile(o.vectors)
	case o.text != "":
		f, err := os.Open(o.text)
		if err != nil {
			return nil, fmt.Errorf("open word vectors: %w", err)
		}
		defer f.Close()
		return loadText(f, o.text)
	default:
		return demoSource(), nil
	}
}

func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = io.Copy(tmp, bytes.NewReader(data))
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

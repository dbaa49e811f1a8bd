// Package gguf holds a small writer for GGUF v3 files — the model format of
// llama.cpp and Ollama — and the builder of a static-embedding model in that
// format: word vectors dressed as a BERT encoder with zero layers, so that a
// real Ollama server can serve the same vectors as toolsearch's built-in
// model.
//
// The writer supports what such a model needs: metadata of every scalar and
// array type GGUF defines, and F32 tensors. It uses only the standard library.
package gguf

// Package embed holds the Embedder interface and its implementations: the
// built-in static word-vector model that ships inside the binary, the Ollama
// embedder, and a persistent embedding cache. Embedder answers are validated
// (validate.go) before they are cached or returned: an embedder that answers
// zeros, NaN or one vector for everything fails with ErrInvalidVector, and
// the cache drops and logs unusable records when it opens its file. It works
// over strings and never imports catalog or search.
package embed

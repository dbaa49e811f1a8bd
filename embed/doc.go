// Package embed holds the Embedder interface and its implementations: the
// built-in static word-vector model that ships inside the binary, the Ollama
// embedder, and a persistent embedding cache. It works over strings and never
// imports catalog or search.
package embed

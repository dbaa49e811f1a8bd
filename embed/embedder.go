package embed

import "context"

// Kind says whether a text is a search query or a document (a tool's text).
// Some model families embed the two with different prefixes, so callers say
// which one they are embedding.
type Kind int

const (
	// Document is a tool's text, embedded once when the catalog is indexed.
	Document Kind = iota
	// Query is a search query, embedded on every semantic search.
	Query
)

// String returns "document" or "query".
func (k Kind) String() string {
	if k == Query {
		return "query"
	}
	return "document"
}

// Embedder turns texts into vectors. It is the one interface of this package
// that is declared beside its implementations, because the implementation
// (Ollama or the built-in model) is chosen at run time.
//
// Implementations are safe for concurrent use.
type Embedder interface {
	// Embed returns one vector per text, in the order of texts, each of
	// length Dimensions(), L2-normalized. A text in which the model finds
	// nothing it knows (e.g. only unknown words) yields an all-zero vector,
	// which callers treat as "no signal"; Embed never returns NaN or
	// infinite values. An implementation that cannot vouch for its answer
	// (a remote server answering zeros or one vector for everything) fails
	// with an error wrapping ErrInvalidVector instead.
	Embed(ctx context.Context, kind Kind, texts []string) ([][]float32, error)
	// Dimensions is the length of every vector Embed returns.
	Dimensions() int
	// ModelID identifies the model and its version, e.g.
	// "builtin:wink-sg-100d/v1" or "ollama:nomic-embed-text:latest". It is
	// part of the embedding cache key, so it must change whenever the vectors
	// the model produces would change.
	ModelID() string
}

// Package search holds the engine: it answers tool searches over an immutable
// catalog snapshot in every mode (semantic, keyword, regex, select, fuzzy,
// browse), applies scoping and filters, and returns the reference format.
//
// The engine knows nothing of gRPC. It translates catalog tools into the
// IDs and strings that the lexical scorers (package fallback), the embedders
// (package embed) and the vector index (package vectorindex) work on, and
// back. Every error it returns wraps one of its sentinels (ErrInvalidArgument,
// ErrNotFound, ErrUnavailable) so that the server maps it to a status code in
// one place.
package search

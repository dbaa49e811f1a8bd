// Package search holds the engine: it answers tool searches over an immutable
// catalog snapshot in every mode (semantic, keyword, regex, select, fuzzy,
// browse), applies scoping and filters, and returns the reference format.
//
// A search travels one pipeline (Engine.Search in search.go): the request
// is checked and its query parsed once into a plan (plan.go); one candidate
// stage answers the plan — browse (browse.go), select:, keyword or regex
// (lexical.go), or vector and keyword candidates behind the confidence gate,
// fused (semantic.go, confidence.go, fusion.go); with learning from use
// on, the learned stage lifts the candidates that agents used for similar
// queries (learned.go; the background learner builds its index from
// package learn's store, learner.go; reports arrive through usage.go); and
// the result stage (result.go) applies the named-server rule (servers.go),
// exact-first (exact.go), calibration (calibration.go; ownaction.go for a
// request in the top tool's own action), the no-match rules that flag a
// confident search whose best tools do not do what was asked (nomatch.go
// and the unserved*.go files), the top band and the limit.
//
// The engine knows nothing of gRPC. It translates catalog tools into the
// IDs and strings that the lexical scorers (package fallback), the embedders
// (package embed) and the vector index (package vectorindex) work on, and
// back. Every error it returns wraps one of its sentinels (ErrInvalidArgument,
// ErrNotFound, ErrCatalogFull, ErrRateLimited) or is the context's error, so that the server
// maps it to a status code in one place.
package search

// Package fallback holds toolsearch's lexical search over a tool catalog:
// keyword search (BM25F over name parts, description, parameters, server and
// category), regex search (narrowed by a trigram index), fuzzy (typo-tolerant) search and exact selection
// by name. Its matchers consume queries parsed by package query (+term,
// -term, server:NAME, category:NAME), as every other mode does.
//
// For the no-match decision of package search it also gives the evidence
// of single words (evidence.go): each query word checked against one tool
// (Index.WordMatches, Index.HasWord), and how a raw request opens and what
// clauses it has (RequestOpening, RequestClauses: pure functions of the
// text, safe for concurrent use). The verbs' synonyms (verbs.go,
// VerbSynonyms) serve both: keyword search reads a request's colloquial
// verb as its plain verbs (Options.Expand), and the no-match decision asks
// whether a tool does a request's verb through them. With Options.Expand
// keyword search also reads a short form as its full words (shortforms.go:
// "repo" as repository, "PRs" as pull request), in ranking and coverage.
//
// An Index never changes once built; Index.Apply derives an updated one in
// time proportional to the change (see update.go), sharing the rest.
//
// It works over tool IDs (positions in the []Document given to NewIndex) and
// strings, imports only the standard library, analysis and query, and knows nothing
// of catalogs, embeddings or gRPC: the search engine translates.
//
// Every mode returns hits with scores in [0, 1], higher is better, in a total
// order (score descending, then tool name ascending).
package fallback

// Package vectorindex holds a nearest-neighbour index over dense float32
// vectors keyed by integer IDs: [HNSW], this package's own HNSW graph
// (parallel, deterministic build) with exact search where exact is as fast,
// and filtered search behind one method, [HNSW.SearchFilter]: given a query,
// k and an [IDSet] of the IDs it may return, it scans the kept vectors
// exactly when the filter keeps few, and otherwise walks the graph with the
// filter applied during the walk (filtered-out nodes are traversed, only
// kept ones collected), with no over-fetch. [HNSW.SearchExact] is the exact
// answer, for measuring recall ([Recall]) on the same vectors; [Flat] is an
// independent brute-force index kept as the tests' oracle. A built index
// is saved with [HNSW.WriteTo] and loaded with [ReadHNSW] (versioned and
// checksummed: a corrupt file is an [ErrCorrupt] error), so a restart need
// not rebuild the graph. Vectors are stored as float32, or, with
// HNSWConfig.Quantization set to [QuantizeInt8], as int8 codes with a
// per-vector scale: a quarter of the memory for about 1 % of recall@10
// (docs/benchmarks.md).
//
// Scores are dot products, which are the cosine similarity when, as callers
// guarantee, vectors are L2-normalized. An all-zero vector (an embedder's
// "no signal") is accepted and scores 0 against everything. Indexes are
// safe for concurrent use: any number of concurrent searches, serialized
// against Add and Delete by a sync.RWMutex.
//
// Choosing the graph: exact search is, up to ~15k vectors of 100
// dimensions, as fast as the graph (10k: ~140 µs per query exact, ~200 µs
// for the graph at the default beam); above that the graph wins (100k:
// ~1.5 ms exact, ~0.5 ms for the graph at recall@10 ≥ 0.99 on clustered,
// embedding-like data), so HNSWConfig.ExactLimit keeps small indexes
// graph-less. The graph needs cluster structure to be both fast and
// accurate: on uniformly random vectors it needs a beam so wide that exact
// search is faster (see TestHNSWRecall).
//
// The package knows nothing of tools or catalogs; the search package
// translates between tools and IDs.
package vectorindex

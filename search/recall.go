package search

import (
	"context"
	"errors"

	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/vectorindex"
)

// VectorRecall measures the vector index of the current state against exact
// search: it embeds each query as semantic search does (common component
// removed), asks the index for its k nearest vectors and scores every
// vector of the state exactly (vectorindex.Flat), and returns the mean recall@k over the
// queries with a non-zero vector, and how many those were. It returns an
// error when the engine has no embedder or the catalog is not fully
// indexed yet. Safe for concurrent use with searches; it costs one exact
// scan of the catalog per query.
func (e *Engine) VectorRecall(ctx context.Context, queries []string, k int) (recall float64, scored int, err error) {
	st := e.state.Load()
	if st.sem == nil || st.sem.embedded < st.snap.Len() {
		return 0, 0, errors.New("search: the semantic index is not ready")
	}
	if k <= 0 || len(queries) == 0 {
		return 0, 0, nil
	}
	raw, err := st.sem.embedder.Embed(ctx, embed.Query, queries)
	if err != nil {
		return 0, 0, err
	}
	// The state's vectors, for the exact answer on the same vectors (the
	// index may also hold those of another generation).
	keep := vectorindex.NewIDSet()
	for _, id := range st.sem.vid {
		keep.Add(int(id))
	}
	var sum float64
	for _, r := range raw {
		qv := project(r, st.sem.pc)
		if isZeroVector(qv) {
			continue
		}
		approx, err := st.sem.index.SearchFilter(qv, k, keep)
		if err != nil {
			return 0, 0, err
		}
		exact, err := st.sem.index.SearchExact(qv, k, keep)
		if err != nil {
			return 0, 0, err
		}
		sum += vectorindex.Recall(approx, exact)
		scored++
	}
	if scored == 0 {
		return 1, 0, nil
	}
	return sum / float64(scored), scored, nil
}

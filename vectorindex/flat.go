package vectorindex

import "sync"

// Flat is an exact index: Search scores the query against every stored
// vector. It is an oracle independent of HNSW's code, for tests: serving
// uses HNSW alone, which scans exactly itself where that is as fast
// (HNSWConfig.ExactLimit, SearchFilter), and measuring recall on a built
// index uses HNSW.SearchExact, which needs no second copy of the vectors.
//
// The zero value is not usable; call NewFlat. Flat is safe for concurrent
// use: Searches run in parallel, Add and Delete take an exclusive lock.
type Flat struct {
	mu   sync.RWMutex
	dim  int
	ids  []int       // position → ID
	vecs []float32   // position*dim … : the vector of ids[position]
	pos  map[int]int // ID → position
}

// NewFlat returns an empty exact index for vectors of dim dimensions.
// dim must be positive; an index with dim ≤ 0 rejects every vector with
// ErrDimension.
func NewFlat(dim int) *Flat {
	return &Flat{dim: dim, pos: make(map[int]int)}
}

// Add stores vecs[i] under ids[i], copying the vectors; an ID that is
// already present is replaced. The whole batch is validated first: on a
// length mismatch (ErrDimension) or a NaN/Inf value (ErrInvalidVector) the
// index is left unchanged.
func (ix *Flat) Add(ids []int, vecs [][]float32) error {
	if err := checkBatch(ids, vecs, ix.dim); err != nil {
		return err
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for i, id := range ids {
		if p, ok := ix.pos[id]; ok {
			copy(ix.vecs[p*ix.dim:(p+1)*ix.dim], vecs[i])
			continue
		}
		ix.pos[id] = len(ix.ids)
		ix.ids = append(ix.ids, id)
		ix.vecs = append(ix.vecs, vecs[i]...)
	}
	return nil
}

// Delete removes the given IDs; IDs that are not present are ignored.
func (ix *Flat) Delete(ids ...int) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, id := range ids {
		p, ok := ix.pos[id]
		if !ok {
			continue
		}
		// Move the last vector into the hole.
		last := len(ix.ids) - 1
		if p != last {
			ix.ids[p] = ix.ids[last]
			copy(ix.vecs[p*ix.dim:(p+1)*ix.dim], ix.vecs[last*ix.dim:])
			ix.pos[ix.ids[p]] = p
		}
		ix.ids = ix.ids[:last]
		ix.vecs = ix.vecs[:last*ix.dim]
		delete(ix.pos, id)
	}
}

// Search returns the k stored vectors most similar to q, best first (Score
// descending, then ID ascending), or all of them when k exceeds Len. k ≤ 0
// returns nil. A q of the wrong length returns ErrDimension; NaN or Inf in
// q returns ErrInvalidVector.
func (ix *Flat) Search(q []float32, k int) ([]Result, error) {
	if err := checkVector(q, ix.dim, "query"); err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if len(ix.ids) == 0 {
		return nil, nil
	}
	t := newTopK(min(k, len(ix.ids)))
	for p, id := range ix.ids {
		t.offer(id, dot(q, ix.vecs[p*ix.dim:(p+1)*ix.dim]))
	}
	return t.sorted(), nil
}

// Len returns the number of stored vectors.
func (ix *Flat) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.ids)
}

// Dim returns the vector length the index was created for.
func (ix *Flat) Dim() int { return ix.dim }

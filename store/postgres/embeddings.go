package postgres

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
)

// Vectors returns the shared embedding cache's vectors of model (its full
// identity: name and digest, as embed.Embedder.ModelID) with dims
// dimensions for keys (embed's cache keys), nil where it has none. Vectors
// are returned as stored; embed validates them. At start-up it waits for
// the store's first connection attempt; when the store is not connected it
// returns ErrUnavailable at once.
func (s *Store) Vectors(ctx context.Context, model string, dims int, keys [][32]byte) ([][]float32, error) {
	s.waitTried(ctx)
	if s.State() != StateReady {
		return nil, ErrUnavailable
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
	defer cancel()
	kb := make([][]byte, len(keys))
	at := make(map[[32]byte][]int, len(keys))
	for i, k := range keys {
		kb[i] = k[:]
		at[k] = append(at[k], i)
	}
	rows, err := s.pool.Query(ctx, `SELECT key, vec FROM toolsearch_embeddings WHERE model = $1 AND dims = $2 AND key = ANY($3)`, model, dims, kb)
	if err != nil {
		return nil, fmt.Errorf("read the shared embedding cache: %w", err)
	}
	defer rows.Close()
	out := make([][]float32, len(keys))
	n := 0
	for rows.Next() {
		var key, raw []byte
		if err := rows.Scan(&key, &raw); err != nil {
			return nil, fmt.Errorf("read the shared embedding cache: %w", err)
		}
		if len(key) != 32 || len(raw) != 4*dims {
			s.invalid()
			continue
		}
		v := make([]float32, dims)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		for _, i := range at[[32]byte(key)] {
			out[i] = v
			n++
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the shared embedding cache: %w", err)
	}
	s.mu.Lock()
	s.stats.VectorsRead += n
	s.mu.Unlock()
	return out, nil
}

// StoreVectors writes computed vectors to the shared embedding cache in
// one batch; a key already stored keeps its vector. When the store is not
// connected it returns ErrUnavailable at once.
func (s *Store) StoreVectors(ctx context.Context, model string, dims int, keys [][32]byte, vecs [][]float32) error {
	if s.State() != StateReady {
		return ErrUnavailable
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
	defer cancel()
	kb := make([][]byte, len(keys))
	vb := make([][]byte, len(keys))
	for i, k := range keys {
		kb[i] = k[:]
		b := make([]byte, 4*len(vecs[i]))
		for j, x := range vecs[i] {
			binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(x))
		}
		vb[i] = b
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO toolsearch_embeddings (model, dims, key, vec)
		SELECT $1, $2, * FROM unnest($3::bytea[], $4::bytea[]) ON CONFLICT DO NOTHING`, model, dims, kb, vb)
	if err != nil {
		return fmt.Errorf("write the shared embedding cache: %w", err)
	}
	s.mu.Lock()
	s.stats.VectorsWritten += len(keys)
	s.mu.Unlock()
	return nil
}

// DropVectors deletes the shared vectors of keys, which a reader found
// unusable, so that they are computed and written again.
func (s *Store) DropVectors(ctx context.Context, model string, dims int, keys [][32]byte) error {
	if s.State() != StateReady {
		return ErrUnavailable
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
	defer cancel()
	kb := make([][]byte, len(keys))
	for i, k := range keys {
		kb[i] = k[:]
	}
	s.mu.Lock()
	s.stats.VectorsInvalid += len(keys)
	s.mu.Unlock()
	_, err := s.pool.Exec(ctx, `DELETE FROM toolsearch_embeddings WHERE model = $1 AND dims = $2 AND key = ANY($3)`, model, dims, kb)
	return err
}

func (s *Store) invalid() {
	s.mu.Lock()
	s.stats.VectorsInvalid++
	s.mu.Unlock()
}

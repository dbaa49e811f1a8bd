package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// write is one buffered write: a learned event or a catalog change.
type write struct {
	event  *Event      // a use or a reset
	change *toolsWrite // a catalog change
}

// toolsWrite is one UpsertTools or DeleteTools call to share.
type toolsWrite struct {
	upsert []toolRow
	del    []string
}

// enqueue buffers w, or counts it as dropped when the buffer is full.
func (s *Store) enqueue(w write) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) >= s.cfg.BufferLimit {
		s.stats.Dropped++
		if s.stats.Dropped == 1 || s.stats.Dropped%1000 == 0 {
			s.log.Warn("shared store write buffer full; dropping writes until it drains", "limit", s.cfg.BufferLimit, "dropped", s.stats.Dropped)
		}
		return
	}
	s.pending = append(s.pending, w)
}

// flush sends the buffered writes in order, in one transaction per run of
// writes of one kind; on an error the unsent ones stay buffered.
func (s *Store) flush(ctx context.Context) error {
	s.mu.Lock()
	batch := s.pending
	s.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	sent := 0
	for sent < len(batch) {
		n := 1
		for sent+n < len(batch) && (batch[sent+n].event != nil) == (batch[sent].event != nil) && n < 1000 {
			n++
		}
		run := batch[sent : sent+n]
		var err error
		if run[0].event != nil {
			err = s.writeEvents(ctx, run)
		} else {
			err = s.writeChanges(ctx, run)
		}
		if err != nil {
			s.dequeue(sent)
			return err
		}
		sent += n
	}
	s.dequeue(sent)
	return nil
}

// dequeue removes the first n buffered writes, which were sent.
func (s *Store) dequeue(n int) {
	if n == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = append(s.pending[:0:0], s.pending[n:]...)
	s.stats.Written += n
}

func (s *Store) writeEvents(ctx context.Context, run []write) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
	defer cancel()
	var (
		kinds, sessions, scopes, tools, queries []string
		weights                                 []float64
		misses                                  []bool
		ats                                     []time.Time
	)
	for _, w := range run {
		e := w.event
		kind := "use"
		if e.Reset {
			kind = "reset"
		}
		kinds, sessions, scopes = append(kinds, kind), append(sessions, e.Session), append(scopes, e.Scope)
		tools, queries, weights, ats = append(tools, e.Tool), append(queries, e.Query), append(weights, e.Weight), append(ats, e.At)
		misses = append(misses, e.Miss)
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, learnLock); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO toolsearch_learn_events (pod, kind, session, scope, tool, query, weight, at, miss)
			SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::timestamptz[], $9::boolean[])`,
			s.pod, kinds, sessions, scopes, tools, queries, weights, ats, misses)
		if err != nil {
			return err
		}
		// A reset also deletes the uses it forgets, so that a pod
		// starting later does not learn them again.
		for _, w := range run {
			if e := w.event; e.Reset {
				if _, err := tx.Exec(ctx, `DELETE FROM toolsearch_learn_events WHERE kind = 'use' AND ($1 = '' OR tool = $1) AND at <= $2`,
					e.Tool, e.At); err != nil {
					return err
				}
			}
		}
		_, err = tx.Exec(ctx, `SELECT pg_notify('toolsearch_learn', '')`)
		return err
	})
	if err != nil {
		return fmt.Errorf("write %d learned events: %w", len(run), err)
	}
	return nil
}

func (s *Store) writeChanges(ctx context.Context, run []write) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
	defer cancel()
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for _, w := range run {
			c := w.change
			if len(c.del) > 0 {
				if _, err := tx.Exec(ctx, `DELETE FROM toolsearch_tools WHERE name = ANY($1)`, c.del); err != nil {
					return err
				}
			}
			if len(c.upsert) == 0 {
				continue
			}
			names := make([]string, len(c.upsert))
			defs := make([][]byte, len(c.upsert))
			for i, r := range c.upsert {
				names[i], defs[i] = r.Name, r.json()
			}
			// Unchanged rows are not rewritten: no change is logged for
			// them, so pods do not apply a change that changes nothing.
			if _, err := tx.Exec(ctx, `INSERT INTO toolsearch_tools (name, definition)
				SELECT * FROM unnest($1::text[], $2::json[])
				ON CONFLICT (name) DO UPDATE SET definition = EXCLUDED.definition, updated_at = now()
				WHERE toolsearch_tools.definition::text IS DISTINCT FROM EXCLUDED.definition::text`, names, defs); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("write %d catalog changes: %w", len(run), err)
	}
	return nil
}

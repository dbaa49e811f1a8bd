package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Event is one entry of the fleet's learned-use log: a use a pod learned
// (after attribution, before the session bounds, which every pod applies
// again), or a reset.
type Event struct {
	// Seq orders the log; Pod is the writer's Store.Pod.
	Seq int64
	Pod string
	// Reset marks a reset of Tool ("" resets everything); the use fields
	// are empty.
	Reset bool
	// Session, Scope, Tool, Query, Weight and Miss are the use
	// (learn.Use).
	Session, Scope, Tool, Query string
	Weight                      float64
	Miss                        bool
	// At is when the pod learned it.
	At time.Time
}

// maxPull bounds the events read at once; a pod far behind reads the log
// in several pulls.
const maxPull = 10000

// PublishUse shares a use this pod learned. It does not block: the use is
// buffered and written within FlushInterval while the database is
// reachable.
func (s *Store) PublishUse(scope, tool, query, session string, weight float64, miss bool, at time.Time) {
	s.enqueue(write{event: &Event{Session: session, Scope: scope, Tool: tool, Query: query, Weight: weight, Miss: miss, At: at}})
}

// PublishReset shares a reset of what tool learned ("" for everything):
// every pod forgets it, and the log drops the uses it forgets.
func (s *Store) PublishReset(tool string, at time.Time) {
	s.enqueue(write{event: &Event{Reset: true, Tool: tool, At: at}})
}

// pullLearn reads the events past the last seen and hands those of other
// pods to h.Learn, in order.
func (s *Store) pullLearn(ctx context.Context, h Handlers) error {
	for {
		var evs []Event
		last, n := s.learnSeq, 0
		err := s.readTx(ctx, func(tx pgx.Tx) error {
			rows, err := tx.Query(ctx, `SELECT seq, pod, kind = 'reset', session, scope, tool, query, weight, miss, at
				FROM toolsearch_learn_events WHERE seq > $1 ORDER BY seq LIMIT $2`, s.learnSeq, maxPull)
			if err != nil {
				return err
			}
			for rows.Next() {
				var e Event
				if err := rows.Scan(&e.Seq, &e.Pod, &e.Reset, &e.Session, &e.Scope, &e.Tool, &e.Query, &e.Weight, &e.Miss, &e.At); err != nil {
					return err
				}
				last, n = e.Seq, n+1
				if e.Pod != s.pod {
					evs = append(evs, e)
				}
			}
			return rows.Err()
		})
		if err != nil {
			return fmt.Errorf("read the learned-use log: %w", err)
		}
		if len(evs) > 0 {
			s.count(len(evs))
			if h.Learn != nil {
				h.Learn(ctx, evs)
			}
		}
		done := n < maxPull
		s.learnSeq = last
		if done {
			return nil
		}
	}
}

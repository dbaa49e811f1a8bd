package learn

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Record is one line of the JSONL export format: one learned query of one
// tool.
//
//	{"tool":"github__create_issue","query":"open a bug report","weight":1.5,"at":"2026-11-23T17:00:00Z"}
//
// weight is as of at (required); a reader decays it to its own clock, and
// leaves out a record already faded below the weight at which learned
// queries are forgotten. scope, when present, is the learning scope ("" or
// absent: the unscoped one).
type Record struct {
	Scope  string    `json:"scope,omitempty"`
	Tool   string    `json:"tool"`
	Query  string    `json:"query"`
	Weight float64   `json:"weight"`
	At     time.Time `json:"at"`
}

// maxLineBytes bounds one JSONL line on import.
const maxLineBytes = 1 << 20

// Export writes everything learned as JSONL, one Record per line, sorted
// by scope, tool, then query (so two exports of the same state are identical).
func (s *Store) Export(w io.Writer) error {
	s.mu.Lock()
	recs := make([]Record, 0, len(s.tools))
	for k, es := range s.tools {
		for _, e := range es {
			recs = append(recs, Record{Scope: k.scope, Tool: k.tool, Query: e.query, Weight: e.weight, At: e.at.UTC()})
		}
	}
	s.mu.Unlock()
	slices.SortFunc(recs, func(a, b Record) int {
		if c := strings.Compare(a.Scope, b.Scope); c != 0 {
			return c
		}
		if c := strings.Compare(a.Tool, b.Tool); c != 0 {
			return c
		}
		return strings.Compare(a.Query, b.Query)
	})
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// Import merges JSONL records into the store and returns how many it read.
// Merging keeps, per tool and query, the larger decayed weight, so
// importing the same file twice (a fleet's periodic pull) changes nothing
// the second time. Blank lines are skipped; a malformed line is an error
// naming its line number, and nothing of the file is imported then.
func (s *Store) Import(r io.Reader) (int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	var recs []Record
	for line := 1; sc.Scan(); line++ {
		b := sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		var rec Record
		if err := json.Unmarshal(b, &rec); err != nil {
			return 0, fmt.Errorf("learned state line %d: %w", line, err)
		}
		if rec.Tool == "" || NormalizeQuery(rec.Query) == "" || !(rec.Weight > 0) || rec.At.IsZero() {
			return 0, fmt.Errorf("learned state line %d: want a tool, a query, a positive weight and the time it was learned (at)", line)
		}
		recs = append(recs, rec)
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("read learned state: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, rec := range recs {
		s.add(toolKey{rec.Scope, rec.Tool}, NormalizeQuery(rec.Query), rec.Weight, rec.At, true)
	}
	if len(recs) > 0 {
		s.version++
	}
	return len(recs), nil
}

package learn

import (
	"bufio"
	"bytes"
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
//	{"tool":"github__create_issue","query":"open a bug report","weight":1.5,"at":"2026-11-23T17:00:00Z","sessions":3}
//
// weight is as of at (required); a reader decays it to its own clock, and
// leaves out a record already faded below the weight at which learned
// queries are forgotten. scope, when present, is the learning scope ("" or
// absent: the unscoped one). sessions is the number of sessions behind the
// tool's learned state (absent: 1); it bounds weight and decides whether
// imported state may lift the tool (CheckRecord, ToolView.Evidence).
// scope_sessions is the number of sessions that used any tool of the
// scope (absent: unknown, counted as the scope's most-used tool's
// sessions); learned pinning divides by it (View.Pinned). miss marks a
// query the tool learned by a miss (Use.Miss), and miss_queries is the
// number of distinct queries the tool learned by misses (absent: none), so
// that the bound on them (Config.MaxMissQueriesPerTool) holds across a
// restart:
//
//	{"tool":"fs__read_file","query":"summarize the report","weight":0.5,"at":"2026-11-23T17:00:00Z","sessions":9,"miss":true,"miss_queries":8}
type Record struct {
	Scope         string    `json:"scope,omitempty"`
	Tool          string    `json:"tool"`
	Query         string    `json:"query"`
	Weight        float64   `json:"weight"`
	At            time.Time `json:"at"`
	Sessions      int       `json:"sessions,omitempty"`
	ScopeSessions int       `json:"scope_sessions,omitempty"`
	Miss          bool      `json:"miss,omitempty"`
	MissQueries   int       `json:"miss_queries,omitempty"`
}

// maxLineBytes bounds one JSONL line on import; a longer line is skipped.
const maxLineBytes = 1 << 20

// ImportStats is what an import did.
type ImportStats struct {
	// Records is the number of records imported.
	Records int
	// Skipped is the number of lines refused (not a JSON record, a field
	// missing or out of range, a time in the future, longer than 1 MiB);
	// every other line was imported.
	Skipped int
	// Clamped is the number of records whose weight was lowered to what
	// their sessions can produce (CheckRecord).
	Clamped int
	// FirstProblem describes the first refused line ("line 3: …"); "" when
	// none was.
	FirstProblem string
}

// Export writes everything learned as JSONL, one Record per line, sorted
// by scope, tool, then query (so two exports of the same state are identical).
func (s *Store) Export(w io.Writer) error {
	s.mu.Lock()
	recs := make([]Record, 0, len(s.tools))
	for k, es := range s.tools {
		for _, e := range es {
			m := s.misses[k]
			recs = append(recs, Record{Scope: k.scope, Tool: k.tool, Query: e.query, Weight: e.weight, At: e.at.UTC(), Sessions: s.voters[k].n,
				ScopeSessions: s.scopes[k.scope], Miss: m.has(e.query), MissQueries: m.count()})
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

// Import merges JSONL records into the store. Merging keeps, per tool and
// query, the larger decayed weight (and per tool the larger sessions
// claim, per scope the larger scope_sessions claim; per tool the union of
// the queries learned by misses, and the larger miss_queries claim), so
// importing the same file twice (a fleet's periodic pull) changes nothing
// the second time. Every record passes CheckRecord; blank
// lines are skipped silently, and a line that is not a valid record
// (junk, a torn last line, a date in the future) is skipped and counted:
// one bad line costs that line, never the rest. The error is the reader's
// only; what was read before it is imported.
func (s *Store) Import(r io.Reader) (ImportStats, error) {
	var st ImportStats
	now := s.cfg.Now()
	var recs []Record
	br := bufio.NewReaderSize(r, 64<<10)
	bad := func(line int, reason string) {
		st.Skipped++
		if st.FirstProblem == "" {
			st.FirstProblem = fmt.Sprintf("line %d: %s", line, reason)
		}
	}
	var rerr error
	for line := 1; ; line++ {
		b, long, err := readLine(br, maxLineBytes)
		if long {
			bad(line, fmt.Sprintf("longer than %d bytes", maxLineBytes))
		} else if len(bytes.TrimSpace(b)) > 0 {
			var rec Record
			if jerr := json.Unmarshal(b, &rec); jerr != nil {
				bad(line, jerr.Error())
			} else if rec, clamped, cerr := CheckRecord(rec, now); cerr != nil {
				bad(line, cerr.Error())
			} else {
				if clamped {
					st.Clamped++
				}
				recs = append(recs, rec)
			}
		}
		if err != nil {
			if err != io.EOF {
				rerr = fmt.Errorf("read learned state: %w", err)
			}
			break
		}
	}
	st.Records = s.merge(recs)
	return st, rerr
}

// Merge imports records that CheckRecord accepted (a fleet store's rows),
// as Import merges a file's lines, and returns how many it merged.
func (s *Store) Merge(recs []Record) int {
	now := s.cfg.Now()
	ok := recs[:0:0]
	for _, r := range recs {
		if r, _, err := CheckRecord(r, now); err == nil {
			ok = append(ok, r)
		}
	}
	return s.merge(ok)
}

// merge adds checked records.
func (s *Store) merge(recs []Record) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, rec := range recs {
		k := toolKey{rec.Scope, rec.Tool}
		s.add(k, NormalizeQuery(rec.Query), rec.Weight, rec.At, true)
		if s.tools[k] != nil {
			v := s.voter(k)
			v.n = max(v.n, rec.Sessions)
			s.scopes[rec.Scope] = max(s.scopes[rec.Scope], rec.ScopeSessions)
			if rec.Miss || rec.MissQueries > 0 {
				m := s.missesOf(k)
				if q := NormalizeQuery(rec.Query); rec.Miss && !m.has(q) {
					m.queries = append(m.queries, q)
				}
				m.n = max(m.n, rec.MissQueries, len(m.queries))
			}
		}
	}
	if len(recs) > 0 {
		s.version++
	}
	return len(recs)
}

// readLine reads one line (without its newline) of at most max bytes; a
// longer line is consumed whole and reported as long, without its bytes.
// err is io.EOF after the last line.
func readLine(br *bufio.Reader, max int) (line []byte, long bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !long {
			if len(line)+len(chunk) > max+1 {
				long, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if long {
			return nil, true, err
		}
		return bytes.TrimSuffix(line, []byte("\n")), false, err
	}
}

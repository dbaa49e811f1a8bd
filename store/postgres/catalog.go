package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/toolsearch/toolsearch/catalog"
)

// CatalogUpdate is one change of the shared catalog, in order.
type CatalogUpdate struct {
	// Seq is the shared catalog's sequence number after this update: equal
	// on every pod that applied the same updates.
	Seq int64
	// Full marks the first update after (re)connecting when this pod had
	// fallen behind the change log: Upsert holds every shared tool, and
	// shared tools this pod applied earlier that are not in it were
	// deleted (the receiver deletes them).
	Full bool
	// Upsert are the tools inserted or replaced; Delete the names removed.
	// A name is in at most one of them.
	Upsert []catalog.Tool
	Delete []string
	// Invalid counts rows whose definition could not be read (an
	// operator's malformed row); they are logged and skipped.
	Invalid int
}

// toolRow is a shared tool's definition as stored in toolsearch_tools
// (json, kept as written): the fields of catalog.Tool, in the catalog's JSON spelling.
type toolRow struct {
	Name         string          `json:"name"`
	Server       string          `json:"server,omitempty"`
	Category     string          `json:"category,omitempty"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"input_schema,omitempty"`
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
}

func rowOf(t catalog.Tool) toolRow {
	return toolRow{Name: t.Name, Server: t.Server, Category: t.Category, Title: t.Title, Description: t.Description,
		InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Annotations: t.Annotations}
}

func (r toolRow) json() []byte {
	b, _ := json.Marshal(r) // strings and raw JSON: cannot fail
	return b
}

func (r toolRow) tool() catalog.Tool {
	return catalog.Tool{Name: r.Name, Server: r.Server, Category: r.Category, Title: r.Title, Description: r.Description,
		InputSchema: r.InputSchema, OutputSchema: r.OutputSchema, Annotations: r.Annotations}
}

// PublishChange shares a catalog change made on this pod (UpsertTools,
// DeleteTools) with the fleet. It does not block: the change is buffered
// and written within FlushInterval while the database is reachable, and
// every pod (this one too) then applies the shared catalog's changes in
// order.
func (s *Store) PublishChange(upsert []catalog.Tool, del []string) {
	c := &toolsWrite{del: del}
	for _, t := range upsert {
		c.upsert = append(c.upsert, rowOf(t))
	}
	s.enqueue(write{change: c})
}

// pullCatalog reads the shared catalog's changes past CatalogSeq and hands
// them to h.Catalog as one update: on first connection (or when this pod
// is behind the oldest change kept) the whole shared catalog, else the
// changes collapsed by name (the last one wins).
func (s *Store) pullCatalog(ctx context.Context, h Handlers) error {
	var u CatalogUpdate
	seq := s.catalogSeq.Load()
	changed := false
	err := s.readTx(ctx, func(tx pgx.Tx) error {
		var minSeq, maxSeq int64
		if err := tx.QueryRow(ctx, `SELECT coalesce(min(seq), 0), coalesce(max(seq), 0) FROM toolsearch_tool_changes`).Scan(&minSeq, &maxSeq); err != nil {
			return err
		}
		u.Seq = maxSeq
		if s.catalogSynced && maxSeq <= seq {
			return nil
		}
		changed = true
		if !s.catalogSynced || seq < minSeq-1 {
			u.Full = true
			rows, err := tx.Query(ctx, `SELECT name, definition FROM toolsearch_tools ORDER BY name`)
			if err != nil {
				return err
			}
			return s.scanTools(rows, &u, nil)
		}
		rows, err := tx.Query(ctx, `SELECT name, definition FROM toolsearch_tool_changes WHERE seq > $1 AND seq <= $2 ORDER BY seq`, seq, maxSeq)
		if err != nil {
			return err
		}
		return s.scanTools(rows, &u, map[string]int{})
	})
	if err != nil {
		return fmt.Errorf("read the shared catalog: %w", err)
	}
	if !changed {
		return nil
	}
	s.count(len(u.Upsert) + len(u.Delete))
	if h.Catalog != nil {
		h.Catalog(ctx, u)
	}
	s.catalogSynced = true
	s.catalogSeq.Store(u.Seq)
	return nil
}

// scanTools reads (name, definition) rows into u; with last set, rows are
// changes collapsed by name (a NULL definition is a delete).
func (s *Store) scanTools(rows pgx.Rows, u *CatalogUpdate, last map[string]int) error {
	type change struct {
		name string
		def  []byte
	}
	var changes []change
	for rows.Next() {
		var c change
		if err := rows.Scan(&c.name, &c.def); err != nil {
			return err
		}
		if last != nil {
			if i, ok := last[c.name]; ok {
				changes[i].def = nil
				changes[i].name = "" // superseded
			}
			last[c.name] = len(changes)
		}
		changes = append(changes, c)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, c := range changes {
		switch {
		case c.name == "":
		case c.def == nil:
			u.Delete = append(u.Delete, c.name)
		default:
			var r toolRow
			if err := json.Unmarshal(c.def, &r); err != nil || r.Name != c.name {
				u.Invalid++
				s.log.Warn("shared catalog: skipping a row whose definition is not a tool of its name", "name", c.name, "error", msg(err))
				continue
			}
			u.Upsert = append(u.Upsert, r.tool())
		}
	}
	return nil
}

func (s *Store) count(n int) {
	s.mu.Lock()
	s.stats.Received += n
	s.mu.Unlock()
}

package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/catalog"
)

// relist pages through the server's tools/list, validates the tools as a
// catalog file's are (leaving out, and logging, the invalid ones), and
// applies the difference from what the catalog holds for the server as one
// change: new and changed tools upserted, tools the server no longer lists
// deleted, unchanged tools (same content hash) not touched. A listing
// error is returned; a catalog error is logged and recorded, and the
// server stays up.
func (s *server) relist(ctx context.Context, sess *mcp.ClientSession) error {
	start := time.Now()
	var listed []*mcp.Tool
	var cursor string
	pages := 0
	for {
		if pages == maxPages {
			return fmt.Errorf("tools/list: still more pages after %d; the server's cursor does not end", maxPages)
		}
		res, err := sess.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return fmt.Errorf("tools/list page %d: %w", pages+1, timeoutHint(err, ctx, s.m.cfg.ListTimeout))
		}
		pages++
		listed = append(listed, res.Tools...)
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	elapsed := time.Since(start)
	s.m.obs.ListDuration(s.cfg.Name, elapsed)

	tools, own, problems, err := s.convert(listed)
	if err != nil {
		return err
	}
	for _, p := range problems {
		s.log.Warn("mcp server listed an invalid tool; it is left out", "problem", p.String())
	}
	if len(problems) > 0 {
		s.m.obs.InvalidTools(s.cfg.Name, len(problems))
	}
	upsert, del, err := s.apply(ctx, tools)
	s.mu.Lock()
	if err == nil {
		s.tools = own
		s.st.Tools = len(own)
	}
	s.st.InvalidTools = len(problems)
	s.st.LastList, s.st.ListMillis, s.st.Pages = time.Now(), elapsed.Milliseconds(), pages
	if err != nil {
		s.st.LastError = err.Error()
	}
	s.mu.Unlock()
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		s.log.Error("applying the mcp server's tools to the catalog failed; the catalog keeps its previous tools for this server",
			"error", err.Error())
		return nil
	}
	s.m.obs.ServerTools(s.cfg.Name, len(own))
	s.log.Debug("mcp server listed", "tools", len(listed), "valid", len(tools), "pages", pages,
		"upserted", upsert, "deleted", del, "list_ms", elapsed.Milliseconds())
	return nil
}

// convert turns listed MCP tools into catalog tools under the server's
// namespace, through the catalog's own parser (the same validation and
// problem lines as a tools/list file). own maps each valid tool's catalog
// name to the server's name for it.
func (s *server) convert(listed []*mcp.Tool) (tools []catalog.Tool, own map[string]string, problems []catalog.Problem, err error) {
	doc, err := json.Marshal(struct {
		Tools []*mcp.Tool `json:"tools"`
	}{listed})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("tools/list: encoding the server's tools: %w", err)
	}
	tools, problems = catalog.ParseLenient(doc, "mcp server "+s.cfg.Name, s.cfg.Name)
	byName := make(map[string]string, len(listed))
	for _, t := range listed {
		if t != nil {
			byName[catalog.Namespace(s.cfg.Name, strings.TrimSpace(t.Name))] = t.Name
		}
	}
	own = make(map[string]string, len(tools))
	for _, t := range tools {
		own[t.Name] = byName[t.Name]
	}
	return tools, own, problems, nil
}

// apply makes the catalog hold exactly tools for this server: it upserts
// the tools that are new or whose content hash differs from the catalog's,
// and deletes the server's earlier tools that are gone, in one change. A
// concurrent change of the same tools (an UpsertTools or DeleteTools call)
// can make the change stale; it is then computed again, once.
func (s *server) apply(ctx context.Context, tools []catalog.Tool) (upserted, deleted int, err error) {
	for attempt := 0; ; attempt++ {
		snap := s.m.cfg.Catalog.Snapshot()
		upsert, del := diff(snap, s.owned(), tools)
		if len(upsert) == 0 && len(del) == 0 {
			return 0, 0, nil
		}
		version, err := s.m.cfg.Catalog.Apply(ctx, upsert, del)
		if err == nil {
			var ins, upd int
			for _, t := range upsert {
				if _, ok := snap.Lookup(t.Name); ok {
					upd++
				} else {
					ins++
				}
			}
			s.m.obs.ToolsChanged(s.cfg.Name, "inserted", ins)
			s.m.obs.ToolsChanged(s.cfg.Name, "updated", upd)
			s.m.obs.ToolsChanged(s.cfg.Name, "deleted", len(del))
			s.log.Info("mcp server tools applied", "inserted", ins, "updated", upd, "deleted", len(del),
				"catalog_version", version)
			return len(upsert), len(del), nil
		}
		if attempt > 0 || !errors.Is(err, catalog.ErrNotFound) {
			return 0, 0, err
		}
	}
}

// owned lists the catalog names the server's last applied listing had.
func (s *server) owned() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.tools))
	for name := range s.tools {
		out = append(out, name)
	}
	return out
}

// diff compares the listed tools with the catalog: upsert holds the
// listed tools that are not in snap or whose content hash differs, del the
// previously owned names that are no longer listed but still in snap.
func diff(snap *catalog.Snapshot, owned []string, listed []catalog.Tool) (upsert []catalog.Tool, del []string) {
	keep := make(map[string]bool, len(listed))
	for _, t := range listed {
		keep[t.Name] = true
		if i, ok := snap.Lookup(t.Name); ok && ContentHash(snap.Tool(i)) == ContentHash(t) {
			continue
		}
		upsert = append(upsert, t)
	}
	for _, name := range owned {
		if _, ok := snap.Lookup(name); ok && !keep[name] {
			del = append(del, name)
		}
	}
	return upsert, del
}

// ContentHash is a SHA-256 of every field of a normalized tool: two tools
// with the same hash define the same tool, so a re-listed tool with an
// unchanged hash is not re-applied (nor re-embedded).
func ContentHash(t catalog.Tool) [32]byte {
	h := sha256.New()
	for _, f := range [][]byte{[]byte(t.Name), []byte(t.Server), []byte(t.Category), []byte(t.Title),
		[]byte(t.Description), t.InputSchema, t.OutputSchema, t.Annotations} {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write(f)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

package search

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
)

// Catalog operations: reading tools by name, listing them, and changing the
// catalog. Changes build a new snapshot and indexes and swap them in one
// atomic store.

// Get returns the named tools in the order asked. Unknown names give an
// error wrapping ErrNotFound that lists every one of them.
func (e *Engine) Get(names []string) ([]Tool, uint64, error) {
	if len(names) == 0 {
		return nil, 0, invalid(errors.New("no tool names given; pass one or more exact names"))
	}
	st := e.state.Load()
	tools, err := st.snap.Get(names...)
	if err != nil {
		if errors.Is(err, catalog.ErrNotFound) {
			return nil, 0, notFound(err)
		}
		return nil, 0, err
	}
	return tools, st.snap.Version(), nil
}

// Page limits of List.
const (
	// DefaultPageSize is the page size of List when the caller asks for 0.
	DefaultPageSize = 50
	// MaxPageSize is the largest page List returns.
	MaxPageSize = 500
)

// ListResult is one page of List.
type ListResult struct {
	// Tools are the page's tools in name order.
	Tools []Tool
	// NextPageToken continues the listing; "" on the last page.
	NextPageToken string
	// Total is the number of tools matching the server filter.
	Total int
	// CatalogVersion is the version of the snapshot listed.
	CatalogVersion uint64
}

// List pages through the tools in name order, optionally of one server
// (case-insensitive). pageSize 0 means DefaultPageSize; larger than
// MaxPageSize is clamped to it; negative is an error.
func (e *Engine) List(server, token string, pageSize int) (ListResult, error) {
	switch {
	case pageSize < 0:
		return ListResult{}, invalid(fmt.Errorf("page_size is %d; use 1 to %d, or 0 for %d", pageSize, MaxPageSize, DefaultPageSize))
	case pageSize == 0:
		pageSize = DefaultPageSize
	case pageSize > MaxPageSize:
		pageSize = MaxPageSize
	}
	st := e.state.Load()
	var allow func(int) bool
	if server = strings.ToLower(strings.TrimSpace(server)); server != "" {
		allow = func(i int) bool { return st.serverOf(i) == server }
	}
	ids, total, next, err := st.page(token, pageSize, allow)
	if err != nil {
		return ListResult{}, err
	}
	out := ListResult{NextPageToken: next, Total: total, CatalogVersion: st.snap.Version(), Tools: make([]Tool, len(ids))}
	for i, id := range ids {
		out.Tools[i] = st.snap.Tool(id)
	}
	return out, nil
}

// ChangeResult reports a catalog change.
type ChangeResult struct {
	// CatalogVersion is the version of the new snapshot.
	CatalogVersion uint64
	// Inserted, Updated and Deleted count the tools changed.
	Inserted, Updated, Deleted int
	// ToolCount is the number of tools in the new snapshot.
	ToolCount int
}

// Upsert inserts or replaces tools: Apply with nothing to delete; with
// Config.Fleet set, the change is also shared with the fleet (Apply alone,
// which catalog sources and the fleet's own changes use, shares nothing). An
// invalid batch (duplicate names, empty or over-long names, non-object
// schemas) changes nothing and returns an error wrapping ErrInvalidArgument
// that lists every problem.
func (e *Engine) Upsert(ctx context.Context, tools []Tool) (ChangeResult, error) {
	if len(tools) == 0 {
		return ChangeResult{}, invalid(errors.New("no tools given; pass one or more tool definitions"))
	}
	res, err := e.Apply(ctx, tools, nil)
	if err == nil && e.cfg.Fleet != nil {
		e.cfg.Fleet.PublishChange(tools, nil)
	}
	return res, err
}

// Delete removes tools by exact name: Apply with nothing to upsert, shared
// with the fleet like Upsert. Any
// unknown name changes nothing and returns an error wrapping ErrNotFound
// that lists the unknown names.
func (e *Engine) Delete(ctx context.Context, names []string) (ChangeResult, error) {
	if len(names) == 0 {
		return ChangeResult{}, invalid(errors.New("no tool names given; pass one or more exact names"))
	}
	res, err := e.Apply(ctx, nil, names)
	if err == nil && e.cfg.Fleet != nil {
		e.cfg.Fleet.PublishChange(nil, names)
	}
	return res, err
}

// UpsertEmbedTimeout bounds how long Upsert waits for the embedder to embed
// the changed tools. Past it (or on an embedder error) the change is
// applied with those tools searchable lexically, and the background indexer
// embeds them when it can.
const UpsertEmbedTimeout = 10 * time.Second

// apply swaps in the state of snapshot next, which replaces cur. Tools whose
// text is unchanged keep their vectors; changed and new tools take theirs
// from pre (raw vectors by document text, embedChanged), and those it lacks
// are left to the background indexer; vectors nothing uses any more are
// deleted after the swap. Callers hold e.mu.
func (e *Engine) apply(cur *state, next *catalog.Snapshot, edited []int, pre map[string][]float32) {
	st, stale := cur.next(next, edited)
	if st.sem != nil && len(pre) > 0 {
		sem, err := e.fill(st.sem, pre)
		if err != nil {
			e.cfg.Log.Warn("indexing changed tools failed; they are searchable lexically until the indexer embeds them",
				"tools", len(pre), "error", err.Error())
		} else {
			st.sem = sem
		}
	}
	e.state.Store(st)
	e.catalogChanged.notify()
	if st.sem != nil {
		e.vectors.remove(stale)
		if st.sem.embedded < next.Len() {
			e.nudge()
		}
	}
}

// embedChanged embeds the document texts of the tools a change edits that
// base has no vector for, without the writers' lock, and returns the raw
// vectors by text. On an embedder error or past UpsertEmbedTimeout it logs
// and returns nil: the change is applied with those tools searchable
// lexically, and the indexer embeds them when it can.
func (e *Engine) embedChanged(ctx context.Context, base *state, ch change) map[string][]float32 {
	if base.sem == nil {
		return nil
	}
	seen := make(map[string]bool, len(ch.counts.Edited))
	var texts []string
	for _, id := range ch.counts.Edited {
		t := ch.next.Tool(id)
		doc := documentText(lexicalDocument(t, base.keywords))
		if j, ok := base.snap.Lookup(t.Name); ok && base.sem.vid[j] >= 0 && base.sem.text.Get(j) == doc {
			continue // unchanged text: apply keeps its vector
		}
		if !seen[doc] {
			seen[doc] = true
			texts = append(texts, doc)
		}
	}
	if len(texts) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, UpsertEmbedTimeout)
	defer cancel()
	raw, err := base.sem.embedder.Embed(ctx, embed.Document, texts)
	if err == nil && len(raw) != len(texts) {
		err = errors.New("embedder returned a different number of vectors than texts")
	}
	if err != nil {
		e.cfg.Log.Warn("embedding changed tools failed; they are searchable lexically until the indexer embeds them",
			"tools", len(texts), "error", err.Error())
		return nil
	}
	out := make(map[string][]float32, len(texts))
	for k, t := range texts {
		out[t] = raw[k]
	}
	return out
}

// Info describes the catalog and the engine's indexes.
type Info struct {
	// ToolCount is the number of tools in the current snapshot.
	ToolCount int
	// CatalogVersion is the current snapshot's version.
	CatalogVersion uint64
	// Servers lists the servers and their tool counts, by name.
	Servers []catalog.ServerCount
	// Embedder is the embedding model's id, "" when none is configured.
	Embedder string
	// Dimensions is the embedding length, 0 when none.
	Dimensions int
	// IndexState is the semantic index's state.
	IndexState IndexState
	// IndexedTools is the number of tools with vectors in the index.
	IndexedTools int
	// MaxResultsCap is the cap on results per search.
	MaxResultsCap int
}

// IndexState is the state of the semantic index.
type IndexState int

// Index states.
const (
	// IndexLexicalOnly: no embedder is configured; searches are lexical.
	IndexLexicalOnly IndexState = iota + 1
	// IndexWarming: the catalog is being embedded; lexical answers meanwhile.
	IndexWarming
	// IndexReady: every tool is embedded and indexed.
	IndexReady
	// IndexDegraded: the embedder is failing; lexical answers while it retries.
	IndexDegraded
)

// Info returns the current catalog and index description.
func (e *Engine) Info() Info {
	st := e.state.Load()
	info := Info{
		ToolCount:      st.snap.Len(),
		CatalogVersion: st.snap.Version(),
		Servers:        st.snap.Servers(),
		IndexState:     IndexState(e.indexState.Load()),
		MaxResultsCap:  e.cfg.MaxResultsCap,
	}
	if st.sem != nil {
		info.Embedder = st.sem.embedder.ModelID()
		info.Dimensions = st.sem.embedder.Dimensions()
		info.IndexedTools = st.sem.embedded
	}
	return info
}

package search

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolsearch/toolsearch/catalog"
)

// Apply changes the catalog in one step: the tools of upsert are inserted
// or replace the tools of the same name, and the tools named in del are
// removed, as one new snapshot (one version) swapped in atomically, so a
// search sees the catalog before or after the whole change. Tools whose
// embedding text is unchanged keep their vectors: only new and changed
// tools are embedded. An empty change (nothing to upsert or delete) changes
// nothing and returns the current version.
//
// An invalid upsert batch (duplicate names, empty or over-long names,
// non-object schemas, a name both upserted and deleted) returns an error
// wrapping ErrInvalidArgument that lists every problem; an unknown name in
// del one wrapping ErrNotFound; a change growing the catalog past
// Config.MaxTools, or its estimated memory past Config.MemoryBudget
// (memory.go), one wrapping ErrCatalogFull. On any error nothing changes.
//
// The changed tools are embedded before the writers' lock is taken (up to
// UpsertEmbedTimeout), so a slow embedder delays this change only: other
// changes, the indexer's swaps and every search go on meanwhile.
func (e *Engine) Apply(ctx context.Context, upsert []Tool, del []string) (ChangeResult, error) {
	base := e.state.Load()
	if len(upsert) == 0 && len(del) == 0 {
		return ChangeResult{CatalogVersion: base.snap.Version(), ToolCount: base.snap.Len()}, nil
	}
	ch, err := e.prepare(base, upsert, del)
	if err != nil {
		return ChangeResult{}, err
	}
	if len(ch.counts.Edited) == 0 && ch.counts.Deleted == 0 {
		// Every tool is already as given (a fleet's change coming back to
		// the pod that made it): nothing to swap, no new version.
		return ChangeResult{CatalogVersion: base.snap.Version(), ToolCount: base.snap.Len()}, nil
	}
	pre := e.embedChanged(ctx, base, ch)
	e.mu.Lock()
	defer e.mu.Unlock()
	cur := e.state.Load()
	if cur.snap != base.snap {
		// Another change landed while this one was embedding: apply this
		// one to it (the vectors embedded above still serve every tool
		// whose text they were made from).
		if ch, err = e.prepare(cur, upsert, del); err != nil {
			return ChangeResult{}, err
		}
	}
	if err := ctx.Err(); err != nil {
		return ChangeResult{}, err
	}
	e.apply(cur, ch.next, ch.counts.Edited, pre)
	e.toolBytes.Store(ch.size)
	c := ch.counts
	return ChangeResult{CatalogVersion: ch.next.Version(), Inserted: c.Inserted, Updated: c.Updated, Deleted: c.Deleted,
		ToolCount: ch.next.Len()}, nil
}

// change is a validated catalog change of one state's snapshot.
type change struct {
	next   *catalog.Snapshot
	counts catalog.Counts
	// size is the next catalog's ToolSizes sum (memory.go).
	size int64
}

// prepare validates a change of cur's snapshot and checks it against the
// tool limit and the memory budget, changing nothing.
func (e *Engine) prepare(cur *state, upsert []Tool, del []string) (change, error) {
	next, c, err := cur.snap.Apply(upsert, del)
	switch {
	case errors.Is(err, catalog.ErrInvalid):
		return change{}, invalid(err)
	case errors.Is(err, catalog.ErrNotFound):
		return change{}, notFound(err)
	case err != nil:
		return change{}, err
	}
	if limit := e.cfg.MaxTools; limit > 0 && next.Len() > limit && next.Len() > cur.snap.Len() {
		return change{}, &wrapped{kind: ErrCatalogFull, err: fmt.Errorf(
			"the catalog holds %d tools and this change adds %d, over the limit of %d; delete tools first, or raise the sidecar's --max-tools",
			cur.snap.Len(), next.Len()-cur.snap.Len(), limit)}
	}
	curSize := e.toolBytes.Load()
	nextSize, addedSize := changeSize(cur.snap, next, curSize, upsert, del)
	if err := e.checkChangeBudget(cur.snap.Len(), curSize, next.Len(), nextSize, upsert, addedSize); err != nil {
		return change{}, err
	}
	return change{next: next, counts: c, size: nextSize}, nil
}

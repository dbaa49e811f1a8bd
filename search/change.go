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
func (e *Engine) Apply(ctx context.Context, upsert []Tool, del []string) (ChangeResult, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	cur := e.state.Load()
	if len(upsert) == 0 && len(del) == 0 {
		return ChangeResult{CatalogVersion: cur.snap.Version(), ToolCount: cur.snap.Len()}, nil
	}
	next, c, err := cur.snap.Apply(upsert, del)
	switch {
	case errors.Is(err, catalog.ErrInvalid):
		return ChangeResult{}, invalid(err)
	case errors.Is(err, catalog.ErrNotFound):
		return ChangeResult{}, notFound(err)
	case err != nil:
		return ChangeResult{}, err
	}
	if limit := e.cfg.MaxTools; limit > 0 && next.Len() > limit && next.Len() > cur.snap.Len() {
		return ChangeResult{}, &wrapped{kind: ErrCatalogFull, err: fmt.Errorf(
			"the catalog holds %d tools and this change adds %d, over the limit of %d; delete tools first, or raise the sidecar's --max-tools",
			cur.snap.Len(), next.Len()-cur.snap.Len(), limit)}
	}
	curSize := e.toolBytes.Load()
	nextSize, addedSize := changeSize(cur.snap, next, curSize, upsert, del)
	if err := e.checkChangeBudget(cur.snap.Len(), curSize, next.Len(), nextSize, upsert, addedSize); err != nil {
		return ChangeResult{}, err
	}
	if err := ctx.Err(); err != nil {
		return ChangeResult{}, err
	}
	e.apply(ctx, cur, next, c.Edited)
	e.toolBytes.Store(nextSize)
	return ChangeResult{CatalogVersion: next.Version(), Inserted: c.Inserted, Updated: c.Updated, Deleted: c.Deleted,
		ToolCount: next.Len()}, nil
}

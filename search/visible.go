package search

import (
	"fmt"

	"github.com/toolsearch/toolsearch/catalog"
)

// Scoped returns what a tool list for a session may show: the catalog
// snapshot, its tools within visible (in catalog order; every tool when
// visible is empty), and the session's revealed tools within visible (in
// reveal order, as Revealed). visible has the syntax and the rule of
// Request.Visible, so a list built from these tools names nothing that a
// Search with the same visible set could not return. An over-long session
// id or a malformed visible set is an error wrapping ErrInvalidArgument.
// Safe for concurrent use.
func (e *Engine) Scoped(sessionID string, visible []string) (*catalog.Snapshot, []Tool, []Tool, error) {
	if err := checkSessionID(sessionID); err != nil {
		return nil, nil, nil, err
	}
	if len(visible) > MaxVisibleTools {
		return nil, nil, nil, invalid(fmt.Errorf("visible_tools has %d entries, the limit is %d; use server:* patterns to shorten it", len(visible), MaxVisibleTools))
	}
	st := e.state.Load()
	keep, err := st.scope(visible, "")
	if err != nil {
		return nil, nil, nil, err
	}
	tools := st.snap.Tools()
	if keep != nil {
		in := make([]Tool, 0, len(tools))
		for _, t := range tools {
			if i, ok := st.snap.Lookup(t.Name); ok && keep(i) {
				in = append(in, t)
			}
		}
		tools = in
	}
	return st.snap, tools, e.revealedIn(st.snap, sessionID, keep), nil
}

package search

import (
	"fmt"
	"strings"

	"github.com/toolsearch/toolsearch/catalog"
)

// scope returns the filter a request's visible set and category filter
// impose, or nil when neither is set. A visible entry is a catalog.Pattern:
// an exact tool name, "server:*", "category:NAME" or "prefix*".
func (st *state) scope(visible []string, category string) (func(int) bool, error) {
	if len(visible) == 0 && category == "" {
		return nil, nil
	}
	n := st.snap.Len()
	var allowed []bool
	if len(visible) > 0 {
		allowed = make([]bool, n)
		for _, v := range visible {
			if err := st.allowVisible(allowed, strings.TrimSpace(v)); err != nil {
				return nil, err
			}
		}
	}
	if category != "" {
		c := strings.ToLower(category)
		if allowed == nil {
			allowed = make([]bool, n)
			for i := range allowed {
				allowed[i] = true
			}
		}
		for i := range allowed {
			allowed[i] = allowed[i] && (st.serverOf(i) == c || st.categoryOf(i) == c)
		}
	}
	return func(id int) bool { return id >= 0 && id < len(allowed) && allowed[id] }, nil
}

// allowVisible marks the tools one visible entry names (catalog.Pattern).
func (st *state) allowVisible(allowed []bool, v string) error {
	pat, err := catalog.ParsePattern(v)
	if err != nil {
		return invalid(fmt.Errorf("visible_tools %w", err))
	}
	if name, ok := pat.Name(); ok {
		if i, ok := st.snap.Lookup(name); ok {
			allowed[i] = true
		}
		// A name this catalog does not have matches nothing: the caller's
		// visible set may span several catalogs.
		return nil
	}
	for i, t := range st.snap.All() {
		if pat.Match(t) {
			allowed[i] = true
		}
	}
	return nil
}

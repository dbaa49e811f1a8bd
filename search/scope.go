package search

import (
	"fmt"
	"strings"
)

// scope returns the filter a request's visible set and category filter
// impose, or nil when neither is set. A visible entry is an exact tool name,
// "server:*" (every tool of that server) or "prefix*" (every tool whose name
// starts with prefix, such as "github__*").
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

// allowVisible marks the tools one visible entry names.
func (st *state) allowVisible(allowed []bool, v string) error {
	star := strings.IndexByte(v, '*')
	switch {
	case v == "":
		return invalid(fmt.Errorf("visible_tools has an empty entry; give tool names or server:* patterns"))
	case star < 0:
		if i, ok := st.snap.Lookup(v); ok {
			allowed[i] = true
		}
		// A name this catalog does not have matches nothing: the caller's
		// visible set may span several catalogs.
		return nil
	case star != len(v)-1:
		return invalid(fmt.Errorf("visible_tools entry %q: '*' may only end a pattern, as in \"github:*\" or \"github__*\"", v))
	}
	if server, ok := strings.CutSuffix(v, ":*"); ok {
		if server == "" {
			return invalid(fmt.Errorf("visible_tools entry %q names no server; write SERVER:*", v))
		}
		s := strings.ToLower(server)
		for i := range allowed {
			if st.serverOf(i) == s {
				allowed[i] = true
			}
		}
		return nil
	}
	prefix := strings.TrimSuffix(v, "*")
	for i, t := range st.snap.All() {
		if strings.HasPrefix(t.Name, prefix) {
			allowed[i] = true
		}
	}
	return nil
}

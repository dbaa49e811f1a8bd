package mcpserver

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/search"
)

// Scope is what one MCP connection sees: the catalog tools it may search,
// list and call (Visible), and the tools listed in full from its first
// tools/list on (AlwaysLoaded). Both hold exact tool names, "server:*"
// patterns (every tool of that server, case-insensitive) or "prefix*"
// patterns (every tool whose name starts with prefix), as
// search.Request.Visible and toolset.Options.AlwaysLoaded do. An empty
// Visible means the whole catalog. Always-loaded tools outside Visible are
// not listed.
//
// A Scope is a value; it is not modified after a connection starts.
type Scope struct {
	Visible      []string
	AlwaysLoaded []string
}

// HTTP names of a connection's scope: a header or a query parameter of the
// request that opens the MCP session (the initialize request), each value a
// comma-separated list, repeatable. Headers and query parameters add up.
// Later requests of the session keep the scope of its first.
//
//	Toolsearch-Visible-Tools: github:*,slack__send_message
//	http://127.0.0.1:8090/mcp?visible_tools=github:*&always_loaded=github__create_issue
const (
	// HeaderVisibleTools sets Scope.Visible.
	HeaderVisibleTools = "Toolsearch-Visible-Tools"
	// HeaderAlwaysLoaded sets Scope.AlwaysLoaded.
	HeaderAlwaysLoaded = "Toolsearch-Always-Loaded"
	// QueryVisibleTools sets Scope.Visible.
	QueryVisibleTools = "visible_tools"
	// QueryAlwaysLoaded sets Scope.AlwaysLoaded.
	QueryAlwaysLoaded = "always_loaded"
)

// ErrInvalidScope marks a malformed scope (an empty entry, a '*' inside a
// pattern, a "server:*" without a server, too many entries).
var ErrInvalidScope = errors.New("invalid scope")

// ScopeFromRequest reads a connection's scope from r's headers and query
// parameters (HeaderVisibleTools, QueryVisibleTools, …); entries are
// trimmed and empty ones between commas skipped. A malformed entry is an
// error wrapping ErrInvalidScope. With none given, the scope is empty (the
// server's defaults apply).
func ScopeFromRequest(r *http.Request) (Scope, error) {
	return scopeFrom(r.Header, r.URL.Query())
}

// scopeFrom is ScopeFromRequest over a request's headers and query.
func scopeFrom(h http.Header, q url.Values) (Scope, error) {
	sc := Scope{
		Visible:      splitList(append(h.Values(HeaderVisibleTools), q[QueryVisibleTools]...)),
		AlwaysLoaded: splitList(append(h.Values(HeaderAlwaysLoaded), q[QueryAlwaysLoaded]...)),
	}
	return sc, sc.validate()
}

// splitList splits comma-separated values into trimmed, non-empty entries.
func splitList(values []string) []string {
	var out []string
	for _, v := range values {
		for e := range strings.SplitSeq(v, ",") {
			if e = strings.TrimSpace(e); e != "" {
				out = append(out, e)
			}
		}
	}
	return out
}

// validate checks every entry's syntax and the number of entries.
func (sc Scope) validate() error {
	for _, list := range []struct {
		name    string
		entries []string
	}{{"visible tools", sc.Visible}, {"always-loaded tools", sc.AlwaysLoaded}} {
		if len(list.entries) > search.MaxVisibleTools {
			return fmt.Errorf("%w: %s has %d entries, the limit is %d; use server:* patterns to shorten it",
				ErrInvalidScope, list.name, len(list.entries), search.MaxVisibleTools)
		}
		for _, e := range list.entries {
			if _, err := parsePattern(e); err != nil {
				return fmt.Errorf("%w: %s: %w", ErrInvalidScope, list.name, err)
			}
		}
	}
	return nil
}

// pattern is one scope entry: an exact name, a server (from "server:*",
// lowercased) or a name prefix (from "prefix*").
type pattern struct {
	name, server, prefix string
}

// parsePattern parses one entry with the syntax of search.Request.Visible.
func parsePattern(entry string) (pattern, error) {
	v := strings.TrimSpace(entry)
	star := strings.IndexByte(v, '*')
	switch {
	case v == "":
		return pattern{}, errors.New("empty entry; give tool names or server:* patterns")
	case star < 0:
		return pattern{name: v}, nil
	case star != len(v)-1:
		return pattern{}, fmt.Errorf("entry %q: '*' may only end a pattern, as in \"github:*\" or \"github__*\"", entry)
	}
	if server, ok := strings.CutSuffix(v, ":*"); ok {
		if server == "" {
			return pattern{}, fmt.Errorf("entry %q names no server; write SERVER:*", entry)
		}
		return pattern{server: strings.ToLower(server)}, nil
	}
	return pattern{prefix: strings.TrimSuffix(v, "*")}, nil
}

// match reports whether t is one of the tools p names.
func (p pattern) match(t catalog.Tool) bool {
	switch {
	case p.name != "":
		return t.Name == p.name
	case p.server != "":
		return strings.ToLower(t.Server) == p.server
	}
	return strings.HasPrefix(t.Name, p.prefix)
}

// visibility matches tools against a scope's visible set; the zero value
// (no entries) admits every tool.
type visibility []pattern

// newVisibility parses entries (already validated).
func newVisibility(entries []string) visibility {
	v := make(visibility, 0, len(entries))
	for _, e := range entries {
		if p, err := parsePattern(e); err == nil {
			v = append(v, p)
		}
	}
	return v
}

// admits reports whether t is visible.
func (v visibility) admits(t catalog.Tool) bool {
	if len(v) == 0 {
		return true
	}
	for _, p := range v {
		if p.match(t) {
			return true
		}
	}
	return false
}

// filter returns the visible tools in catalog order; tools itself when
// everything is visible.
func (v visibility) filter(tools []catalog.Tool) []catalog.Tool {
	if len(v) == 0 {
		return tools
	}
	out := make([]catalog.Tool, 0, len(tools))
	for _, t := range tools {
		if v.admits(t) {
			out = append(out, t)
		}
	}
	return out
}

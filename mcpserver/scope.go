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
// tools/list on (AlwaysLoaded). Both hold catalog.Patterns: exact tool
// names, "server:*" (every tool of that server, case-insensitive),
// "category:NAME" or "prefix*" (every tool whose name starts with prefix),
// as search.Request.Visible and toolset.Options.AlwaysLoaded do. An empty
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
			if _, err := catalog.ParsePattern(e); err != nil {
				return fmt.Errorf("%w: %s %w", ErrInvalidScope, list.name, err)
			}
		}
	}
	return nil
}

// visibility matches tools against a scope's visible set; the zero value
// (no entries) admits every tool.
type visibility []catalog.Pattern

// newVisibility parses entries (already validated).
func newVisibility(entries []string) visibility {
	v := make(visibility, 0, len(entries))
	for _, e := range entries {
		if p, err := catalog.ParsePattern(e); err == nil {
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
		if p.Match(t) {
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
